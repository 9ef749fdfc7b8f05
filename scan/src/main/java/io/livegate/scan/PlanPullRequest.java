package io.livegate.scan;

import io.livegate.core.account.Accounts;
import io.livegate.core.deploy.CommitStatusPublisher;
import io.livegate.core.deploy.CommitStatusPublisher.State;
import io.livegate.core.deploy.StatusTexts;
import io.livegate.core.pr.PlanComments;
import io.livegate.core.pr.PlanPullRequestResult;
import io.livegate.core.pr.PullRequestCheckout;
import io.livegate.core.pr.PullRequestHead;
import io.livegate.core.pr.UnitPlanLauncher;
import io.livegate.core.stack.DeployStack;
import io.livegate.core.stack.PlannedExecution;
import io.livegate.scan.repo.GitRepo;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * The pr-plan dispatch: checks out a pull request's head, scans what it changes against the point
 * where it left its base branch (as GitHub's diff does), and starts one plan per unit of the change
 * set, each through the {@link UnitPlanLauncher}. Statuses: {@code livegate/plan: <unit>} pending
 * for each unit, and {@code livegate/plan} for the scan itself (success with the count, or failure
 * with the error). A pull request from a fork is refused unless {@link Settings#planForks()}: its
 * code would run during plan.
 *
 * <p>The change set includes the units that depend on a changed unit. Their plans read the current
 * outputs of their dependencies, not the ones this pull request would produce; the deployment plans
 * them again after their dependencies are applied.
 */
public final class PlanPullRequest {
  /**
   * @param planForks whether pull requests from forks are planned
   * @param logUrl a link to the dispatch's log; may be empty
   * @param parallelism how many units the scan reads at once
   */
  public record Settings(boolean planForks, String logUrl, int parallelism) {}

  private final PullRequestCheckout checkout;
  private final Function<ScanCommand, DeployStack> scan;
  private final Accounts accounts;
  private final CommitStatusPublisher statuses;
  private final UnitPlanLauncher launcher;
  private final Optional<PlanComments> comments;
  private final Settings settings;
  private final Consumer<String> log;

  /**
   * @param scan the graph scan: it reads configs and runs nothing of the pull request's
   * @param comments empty when the plan comment is turned off
   */
  public PlanPullRequest(
      PullRequestCheckout checkout,
      Function<ScanCommand, DeployStack> scan,
      Accounts accounts,
      CommitStatusPublisher statuses,
      UnitPlanLauncher launcher,
      Optional<PlanComments> comments,
      Settings settings,
      Consumer<String> log) {
    this.checkout = checkout;
    this.scan = scan;
    this.accounts = accounts;
    this.statuses = statuses;
    this.launcher = launcher;
    this.comments = comments;
    this.settings = settings;
    this.log = log;
  }

  public PlanPullRequestResult plan(PullRequestHead head) {
    if (head.fromFork() && !settings.planForks()) {
      return overall(
          head,
          PlanPullRequestResult.Outcome.FORK_REFUSED,
          List.of(),
          State.ERROR,
          "not planned: pull requests from forks are not planned");
    }
    List<String> units;
    try {
      Path root = checkout.checkout(head);
      String forkPoint;
      try (GitRepo repo = GitRepo.open(root)) {
        forkPoint = repo.mergeBase(head.baseSha(), head.headSha());
      }
      DeployStack stack =
          scan.apply(
              ScanCommand.builder(root, accounts)
                  .base(forkPoint)
                  .head(head.headSha())
                  .parallelism(settings.parallelism())
                  .build());
      units = stack.executions().stream().map(PlannedExecution::unit).sorted().toList();
    } catch (RuntimeException e) {
      return overall(
          head,
          PlanPullRequestResult.Outcome.FAILED,
          List.of(),
          State.FAILURE,
          "scan failed: " + StatusTexts.headline(String.valueOf(e.getMessage())));
    }
    comments.ifPresent(comment -> comment.start(head, units));
    if (units.isEmpty()) {
      return overall(
          head, PlanPullRequestResult.Outcome.NO_CHANGES, units, State.SUCCESS, "no units changed");
    }
    // Every pending status goes out before any plan starts: a plan that ends at once must not
    // have its outcome overwritten by a later "queued".
    for (String unit : units) {
      statuses.publish(
          head.repository(),
          head.headSha(),
          StatusTexts.planContext(unit),
          State.PENDING,
          "plan queued",
          settings.logUrl());
    }
    List<String> started = new ArrayList<>();
    for (String unit : units) {
      try {
        launcher.launch(head, unit);
        started.add(unit);
      } catch (RuntimeException e) {
        log.accept("[" + unit + "] plan not started: " + e.getMessage());
        statuses.publish(
            head.repository(),
            head.headSha(),
            StatusTexts.planContext(unit),
            State.ERROR,
            "plan not started: " + StatusTexts.headline(String.valueOf(e.getMessage())),
            settings.logUrl());
      }
    }
    return overall(
        head,
        PlanPullRequestResult.Outcome.STARTED,
        started,
        started.size() == units.size() ? State.SUCCESS : State.ERROR,
        units.size()
            + (units.size() == 1 ? " unit" : " units")
            + " changed, "
            + started.size()
            + " plans started");
  }

  private PlanPullRequestResult overall(
      PullRequestHead head,
      PlanPullRequestResult.Outcome outcome,
      List<String> units,
      State state,
      String message) {
    log.accept(head.repository() + "#" + head.number() + " at " + head.headSha() + ": " + message);
    statuses.publish(
        head.repository(), head.headSha(), StatusTexts.PLAN, state, message, settings.logUrl());
    return new PlanPullRequestResult(outcome, units, message);
  }
}
