package io.livegate.core.vote;

import io.livegate.core.deploy.Deployment;
import io.livegate.core.deploy.DeploymentStore;
import io.livegate.core.deploy.Execution;
import io.livegate.core.deploy.ExecutionStatus;
import io.livegate.core.deploy.ExecutionStore;
import io.livegate.core.deploy.MergedPullRequest;
import io.livegate.core.flow.FlowCallback;
import io.livegate.core.flow.FlowDecision;
import io.livegate.core.flow.FlowState;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * RequestApproval on AWS: keeps the task token that the deciding vote will answer, then mails each
 * voter their own signed, expiring links. A plan without changes skips the vote when the
 * installation says so. A voter whose mail fails does not stop the others; the failures are
 * reported, and when nobody could be mailed the flow fails rather than wait for its timeout.
 */
public final class RequestVotes {
  /** The error a flow gets when no voter could be mailed. */
  public static final String MAIL_FAILED_ERROR = "livegate.MailFailed";

  /**
   * What one request did.
   *
   * @param mailed the voters who were sent their links
   * @param failures one line per voter whose mail failed
   */
  public record Requested(String message, List<String> mailed, List<String> failures) {}

  /** How votes are requested. */
  public record Settings(String voteBaseUrl, Duration linkLifetime, boolean skipEmpty) {}

  private final ExecutionStore executions;
  private final DeploymentStore deployments;
  private final VoteLinks links;
  private final Mailer mailer;
  private final FlowCallback callback;
  private final Settings settings;
  private final Clock clock;

  public RequestVotes(
      ExecutionStore executions,
      DeploymentStore deployments,
      VoteLinks links,
      Mailer mailer,
      FlowCallback callback,
      Settings settings,
      Clock clock) {
    this.executions = executions;
    this.deployments = deployments;
    this.links = links;
    this.mailer = mailer;
    this.callback = callback;
    this.settings = settings;
    this.clock = clock;
  }

  /**
   * @param logUrl where the plan's log is, for the mail; may be empty
   */
  public Requested request(long executionId, String taskToken, String logUrl) {
    Optional<Execution> found = executions.find(executionId);
    if (found.isEmpty() || found.get().status() != ExecutionStatus.RUNNING) {
      String why =
          found.isEmpty()
              ? "there is no execution " + executionId
              : "execution " + found.get().name() + " is " + found.get().status().id();
      callback.fail(taskToken, "livegate.NotRunning", why);
      return new Requested(why + "; no votes requested", List.of(), List.of());
    }
    Execution execution = found.get();
    if (execution.planSummary() == null) {
      String why = "execution " + execution.name() + " has no recorded plan";
      callback.fail(taskToken, MAIL_FAILED_ERROR, why);
      return new Requested(why + "; no votes requested", List.of(), List.of());
    }
    if (!executions.recordApprovalToken(executionId, taskToken)) {
      return new Requested(
          "execution " + execution.name() + " stopped running; no votes requested",
          List.of(),
          List.of());
    }
    executions.enterFlowState(executionId, FlowState.REQUEST_APPROVAL.stateName(), null, now());
    if (settings.skipEmpty() && !execution.planSummary().hasChanges()) {
      callback.decide(taskToken, FlowDecision.SKIPPED);
      return new Requested(execution.name() + ": no changes; vote skipped", List.of(), List.of());
    }
    MergedPullRequest deployed =
        deployments.find(execution.deploymentId()).map(Deployment::pullRequest).orElse(null);
    Instant expires = now().plus(settings.linkLifetime());
    List<String> mailed = new ArrayList<>();
    List<String> failures = new ArrayList<>();
    for (String voter : execution.spec().voters()) {
      String approve =
          links.link(
              settings.voteBaseUrl(),
              new VoteLinks.Ballot(executionId, voter, Vote.Choice.APPROVE, expires));
      String reject =
          links.link(
              settings.voteBaseUrl(),
              new VoteLinks.Ballot(executionId, voter, Vote.Choice.REJECT, expires));
      try {
        mailer.send(
            voter,
            VoteMail.of(execution, execution.planSummary(), deployed, logUrl, "", approve, reject));
        mailed.add(voter);
      } catch (RuntimeException e) {
        failures.add(voter + ": " + e.getMessage());
      }
    }
    if (mailed.isEmpty()) {
      callback.fail(
          taskToken,
          MAIL_FAILED_ERROR,
          "no voter of " + execution.name() + " could be mailed: " + String.join("; ", failures));
    }
    return new Requested(
        execution.name()
            + ": mailed "
            + mailed.size()
            + " of "
            + execution.spec().voters().size()
            + " voters"
            + (failures.isEmpty() ? "" : "; failed: " + String.join("; ", failures)),
        mailed,
        failures);
  }

  private Instant now() {
    return clock.instant();
  }
}
