package io.livegate.core.pr;

import io.livegate.core.deploy.CommitStatusPublisher;
import io.livegate.core.deploy.CommitStatusPublisher.State;
import io.livegate.core.deploy.Deployment;
import io.livegate.core.deploy.DeploymentStatus;
import io.livegate.core.deploy.DeploymentStore;
import io.livegate.core.deploy.Execution;
import io.livegate.core.deploy.ExecutionStore;
import io.livegate.core.deploy.MergeLock;
import io.livegate.core.deploy.MergedPullRequest;
import io.livegate.core.deploy.OperatorCommands;
import java.time.Clock;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * The {@value #CONTEXT} commit status of open pull requests: pending while a deployment they must
 * not merge past is in progress, success otherwise. The metadb's queue decides who holds the lock;
 * this only shows it. When the lock passes on, every open pull request is looked at again, so a
 * pull request blocked by the finished deployment turns green without a new push.
 */
public final class MergeGate {
  public static final String CONTEXT = "livegate/merge-lock";

  private final DeploymentStore deployments;
  private final ExecutionStore executions;
  private final OpenPullRequests pullRequests;
  private final StatusLedger ledger;
  private final CommitStatusPublisher statuses;
  private final LockScope scope;
  private final String targetUrl;
  private final OperatorCommands operator;
  private final Clock clock;

  /**
   * Which pull requests the merge-lock statuses block, where they link to, and the operator command
   * they name.
   *
   * @param scope which pull requests a deployment blocks
   * @param targetUrl where the merge-lock status links to (the status page); may be empty
   * @param operator how an operator runs {@code livegate admin} here, named when one is needed
   */
  public record LockStatuses(LockScope scope, String targetUrl, OperatorCommands operator) {}

  /**
   * @param statuses posts and records in {@code ledger} (see {@link StatusLedger#recording})
   */
  public MergeGate(
      DeploymentStore deployments,
      ExecutionStore executions,
      OpenPullRequests pullRequests,
      StatusLedger ledger,
      CommitStatusPublisher statuses,
      LockStatuses lockStatuses,
      Clock clock) {
    this.deployments = deployments;
    this.executions = executions;
    this.pullRequests = pullRequests;
    this.ledger = ledger;
    this.statuses = statuses;
    this.scope = lockStatuses.scope();
    this.targetUrl = lockStatuses.targetUrl();
    this.operator = lockStatuses.operator();
    this.clock = clock;
  }

  /** A pull request was opened or got a new head: record it and post its merge-lock status. */
  public void headChanged(PullRequestHead head) {
    pullRequests.opened(head, clock.instant());
    post(head, Optional.empty(), deployments.lockHolder(head.repository()), true);
  }

  /** A plan of {@code head} named the units it changes. */
  public void unitsNamed(PullRequestHead head, Set<String> units) {
    pullRequests.unitsNamed(head, units, clock.instant());
    post(head, Optional.of(units), deployments.lockHolder(head.repository()), false);
  }

  /**
   * A plan dispatch of {@code head} finished: when it found the units the head changes (none is an
   * answer too), they are recorded. A dispatch that failed or refused names nothing, and the pull
   * request stays as blocked as it was.
   */
  public void planned(PullRequestHead head, PlanPullRequestResult result) {
    if (result.outcome() == PlanPullRequestResult.Outcome.STARTED
        || result.outcome() == PlanPullRequestResult.Outcome.NO_CHANGES) {
      unitsNamed(head, Set.copyOf(result.units()));
    }
  }

  /**
   * A pull request was closed. Without a merge, the statuses livegate left pending on its head are
   * cleared, since no plan or lock will finish them.
   */
  public void closed(PullRequestHead head, boolean merged) {
    pullRequests.closed(head.repository(), head.number(), clock.instant());
    if (merged) {
      return;
    }
    for (PostedStatus pending : ledger.pending(head.repository(), head.headSha())) {
      statuses.publish(
          pending.repository(),
          pending.sha(),
          pending.context(),
          State.ERROR,
          "pull request #" + head.number() + " was closed without merging",
          pending.targetUrl());
    }
  }

  /**
   * The lock changed hands: posts the merge-lock status of every open pull request whose status
   * changes, for example success for those the finished deployment blocked.
   */
  public void refresh(String repository) {
    Optional<Deployment> holder = deployments.lockHolder(repository);
    for (OpenPullRequest open : pullRequests.open(repository)) {
      post(open.head(), open.units(), holder, false);
    }
  }

  /**
   * {@code lock}, announced: whenever it is taken or released, the merge-lock statuses of the
   * repository's open pull requests follow.
   */
  public MergeLock announcing(MergeLock lock) {
    return new MergeLock() {
      @Override
      public boolean acquire(MergedPullRequest holder) {
        boolean held = lock.acquire(holder);
        refresh(holder.repository());
        return held;
      }

      @Override
      public boolean release(MergedPullRequest holder) {
        boolean released = lock.release(holder);
        refresh(holder.repository());
        return released;
      }
    };
  }

  private void post(
      PullRequestHead head,
      Optional<Set<String>> units,
      Optional<Deployment> holder,
      boolean always) {
    Verdict verdict = verdict(units, holder);
    Optional<PostedStatus> last = ledger.last(head.repository(), head.headSha(), CONTEXT);
    boolean changed =
        last.isEmpty()
            || last.get().state() != verdict.state()
            || !last.get().description().equals(verdict.description());
    if (always || changed) {
      statuses.publish(
          head.repository(),
          head.headSha(),
          CONTEXT,
          verdict.state(),
          verdict.description(),
          targetUrl);
    }
  }

  private record Verdict(State state, String description) {}

  private Verdict verdict(Optional<Set<String>> units, Optional<Deployment> holder) {
    if (holder.isEmpty()) {
      return new Verdict(State.SUCCESS, "no deployment in progress");
    }
    Deployment deployment = holder.get();
    String inProgress = "deployment of PR #" + deployment.pullRequest().number() + " in progress";
    if (deployment.status() == DeploymentStatus.ROLLBACK_FAILED) {
      inProgress =
          "deployment of PR #"
              + deployment.pullRequest().number()
              + " needs an operator: a rollback failed; "
              + operator.resolveRollback(executions, deployment.id());
    }
    if (scope == LockScope.REPO) {
      return new Verdict(State.PENDING, inProgress);
    }
    if (!deployment.stackStored()) {
      return new Verdict(State.PENDING, inProgress + "; its units are not known yet");
    }
    if (units.isEmpty()) {
      return new Verdict(State.PENDING, inProgress + "; waiting for this head's plan");
    }
    Set<String> shared = new TreeSet<>(units.get());
    shared.retainAll(deployedUnits(deployment));
    if (shared.isEmpty()) {
      return new Verdict(
          State.SUCCESS,
          "touches no unit of the deployment of PR #" + deployment.pullRequest().number());
    }
    return new Verdict(State.PENDING, inProgress + "; both change " + shared.iterator().next());
  }

  private Set<String> deployedUnits(Deployment deployment) {
    Set<String> units = new TreeSet<>();
    for (Execution execution : executions.list(deployment.id())) {
      units.add(execution.unit());
    }
    return units;
  }
}
