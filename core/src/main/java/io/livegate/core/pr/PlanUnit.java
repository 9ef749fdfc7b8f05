package io.livegate.core.pr;

import io.livegate.core.LivegateException;
import io.livegate.core.account.Account;
import io.livegate.core.account.Accounts;
import io.livegate.core.deploy.CommitStatusPublisher;
import io.livegate.core.deploy.CommitStatusPublisher.State;
import io.livegate.core.deploy.ExecutionNames;
import io.livegate.core.deploy.StatusTexts;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * Plans one unit of a pull request at its head, with the account's plan role and never an apply,
 * and shows the outcome: {@code livegate/plan: <unit>} pending while it plans, then success with
 * the plan's counts or failure with the error's first line, each with the log link; and the unit's
 * block in the plan comment, when comments are on.
 */
public final class PlanUnit {
  private final PullRequestCheckout checkout;
  private final UnitPlanner planner;
  private final Accounts accounts;
  private final CommitStatusPublisher statuses;
  private final Optional<PlanComments> comments;
  private final String logUrl;
  private final Consumer<String> log;

  /**
   * @param comments empty when the plan comment is turned off
   * @param logUrl a link to this plan's log; may be empty
   */
  public PlanUnit(
      PullRequestCheckout checkout,
      UnitPlanner planner,
      Accounts accounts,
      CommitStatusPublisher statuses,
      Optional<PlanComments> comments,
      String logUrl,
      Consumer<String> log) {
    this.checkout = checkout;
    this.planner = planner;
    this.accounts = accounts;
    this.statuses = statuses;
    this.comments = comments;
    this.logUrl = logUrl;
    this.log = log;
  }

  public PlanUnitResult plan(PlanUnitCommand command) {
    PullRequestHead head = command.head();
    String unit = command.unit();
    String context = StatusTexts.planContext(unit);
    statuses.publish(head.repository(), head.headSha(), context, State.PENDING, "planning", logUrl);
    UnitPlanner.Outcome outcome;
    try {
      outcome = planIn(checkout.checkout(head).toAbsolutePath().normalize(), head, unit);
    } catch (RuntimeException e) {
      outcome = UnitPlanner.Outcome.failed(String.valueOf(e.getMessage()));
    }
    PlanUnitResult result;
    PlanComment.Entry entry;
    if (outcome.succeeded()) {
      String summary = StatusTexts.summary(outcome.summary());
      result = new PlanUnitResult(unit, true, summary);
      entry =
          new PlanComment.Entry(unit, PlanComment.State.PLANNED, summary, outcome.text(), logUrl);
    } else {
      String headline = "plan failed: " + StatusTexts.headline(outcome.error());
      result = new PlanUnitResult(unit, false, headline);
      entry =
          new PlanComment.Entry(unit, PlanComment.State.FAILED, headline, outcome.error(), logUrl);
    }
    log.accept("[" + unit + "] " + result.summary());
    statuses.publish(
        head.repository(),
        head.headSha(),
        context,
        result.planned() ? State.SUCCESS : State.FAILURE,
        result.summary(),
        logUrl);
    comments.ifPresent(comment -> comment.record(head, entry));
    return result;
  }

  private UnitPlanner.Outcome planIn(Path root, PullRequestHead head, String unit) {
    Path directory = root.resolve(unit).normalize();
    if (!directory.startsWith(root) || !Files.isDirectory(directory)) {
      throw new LivegateException(
          "the unit " + unit + " is not a directory at " + head.headSha() + "; nothing planned");
    }
    Account account =
        accounts
            .accountOf(unit)
            .orElseThrow(
                () -> new LivegateException("the unit " + unit + " belongs to no account"));
    // Plans of several pull requests may share a directory (locally): the name keeps them apart.
    String planName = "pr" + head.number() + "-" + ExecutionNames.of(head.number(), unit, false);
    return planner.plan(root, unit, account.planRole(), planName);
  }
}
