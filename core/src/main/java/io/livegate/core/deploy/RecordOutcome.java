package io.livegate.core.deploy;

import io.livegate.core.LivegateException;
import io.livegate.core.runner.RunnerArgv;
import java.time.Clock;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Records how an execution ended, idempotently, and does what follows: the failure policy, the
 * rollback, finishing the deployment, and starting the next one.
 *
 * <p>A deployment finishes when every execution is final. All succeeded: {@code succeeded}. A
 * failure: rollback executions are added for every execution that created resources of newly added
 * providers, and the deployment finishes {@code failed} when they are done, or {@code
 * rollback_failed} (keeping the lock, for an operator) when one of them fails. Rejections without
 * failures: {@code rejected}. A rejected rollback is the voters' choice to keep the resources, so
 * it does not hold the lock.
 */
public final class RecordOutcome {
  private static final Set<ExecutionStatus> OUTCOMES =
      EnumSet.of(ExecutionStatus.SUCCEEDED, ExecutionStatus.FAILED, ExecutionStatus.REJECTED);

  private final DeploymentStore deployments;
  private final ExecutionStore executions;
  private final StartNextDeployment startNext;
  private final FailurePolicy policy;
  private final RunnerArgv runner;
  private final Clock clock;

  public RecordOutcome(
      DeploymentStore deployments,
      ExecutionStore executions,
      StartNextDeployment startNext,
      FailurePolicy policy,
      RunnerArgv runner,
      Clock clock) {
    this.deployments = deployments;
    this.executions = executions;
    this.startNext = startNext;
    this.policy = policy;
    this.runner = runner;
    this.clock = clock;
  }

  public OutcomeResult record(long executionId, ExecutionStatus outcome) {
    if (!OUTCOMES.contains(outcome)) {
      throw new LivegateException(
          "an execution ends succeeded, failed or rejected, not " + outcome.id());
    }
    Optional<Execution> found = executions.find(executionId);
    if (found.isEmpty()) {
      return OutcomeResult.unchanged("there is no execution " + executionId);
    }
    Execution execution = found.get();
    Optional<List<Execution>> ended;
    if (outcome == ExecutionStatus.SUCCEEDED) {
      ended =
          executions.transition(executionId, ExecutionStatus.RUNNING, outcome, clock.instant())
              ? Optional.of(List.of())
              : Optional.empty();
    } else {
      Abort abort = abortAfter(execution);
      ended =
          executions.endAndAbort(executionId, outcome, abort.ids(), abort.from(), clock.instant());
    }
    if (ended.isEmpty()) {
      return repeated(execution, outcome);
    }
    List<Execution> aborted = ended.get();
    List<Execution> toStop =
        aborted.stream().filter(e -> e.status() == ExecutionStatus.RUNNING).toList();
    String message =
        "recorded "
            + execution.name()
            + " as "
            + outcome.id()
            + (aborted.isEmpty() ? "" : "; aborted " + aborted.size());
    return settle(execution.deploymentId(), message, aborted, toStop);
  }

  /** Which executions a failure or rejection aborts, and from which statuses. */
  private record Abort(Set<Long> ids, Set<ExecutionStatus> from) {}

  /**
   * Read before the outcome is recorded: what it aborts follows from the dependency edges, the
   * accounts and the phase, which do not change while the execution runs.
   */
  private Abort abortAfter(Execution failed) {
    List<Execution> all = executions.list(failed.deploymentId());
    if (policy == FailurePolicy.ABORT_ALL) {
      return new Abort(
          all.stream()
              .filter(e -> e.rollback() == failed.rollback() && e.id() != failed.id())
              .map(Execution::id)
              .collect(Collectors.toSet()),
          EnumSet.of(ExecutionStatus.WAITING, ExecutionStatus.RUNNING));
    }
    return new Abort(
        ReleaseRule.waitingOn(failed, all, deployments.accountWaits(failed.deploymentId())),
        EnumSet.of(ExecutionStatus.WAITING));
  }

  /**
   * An outcome recorded before. The call that recorded it may have died before it settled the
   * deployment, which no later outcome would do once every execution is final; settling is
   * idempotent, so the repeat does it. The result still says {@code recorded} false.
   */
  private OutcomeResult repeated(Execution execution, ExecutionStatus outcome) {
    String already =
        "execution "
            + execution.name()
            + " is already "
            + executions.find(execution.id()).orElseThrow().status().id();
    OutcomeResult settled =
        settle(
            execution.deploymentId(),
            already + "; settled what the call that recorded it left undone",
            List.of(),
            List.of());
    if (settled.finished().isEmpty() && settled.rollbacksAdded() == 0) {
      return OutcomeResult.unchanged(
          already + "; recording it as " + outcome.id() + " changes nothing");
    }
    return new OutcomeResult(
        false,
        settled.message(),
        List.of(),
        List.of(),
        settled.rollbacksAdded(),
        settled.finished(),
        settled.releaseLock(),
        settled.next());
  }

  /**
   * Finishes the deployment, or starts its rollback, once every execution is final. The deployment
   * is read before its executions: a racing outcome may start the rollback in between, and then the
   * list shows the new rollbacks unfinished rather than a stale list passing for the rollback's
   * end.
   */
  private OutcomeResult settle(
      long deploymentId, String message, List<Execution> aborted, List<Execution> toStop) {
    OutcomeResult ongoing =
        new OutcomeResult(
            true, message, toStop, aborted, 0, Optional.empty(), false, Optional.empty());
    if (executions.anyUnfinished(deploymentId)) {
      return ongoing;
    }
    Deployment deployment = deployments.find(deploymentId).orElseThrow();
    List<Execution> all = executions.list(deploymentId);
    if (all.stream().anyMatch(e -> !e.status().isTerminal())) {
      return ongoing;
    }
    DeploymentStatus finalStatus;
    if (deployment.status() == DeploymentStatus.RUNNING) {
      if (all.stream().anyMatch(e -> e.status() == ExecutionStatus.FAILED)) {
        List<ExecutionSpec> rollbacks = RollbackExecutions.rollbacks(all, runner);
        if (!rollbacks.isEmpty()) {
          boolean started = deployments.startRollback(deploymentId, rollbacks, clock.instant());
          return new OutcomeResult(
              true,
              message + (started ? "; rolling back " + rollbacks.size() : ""),
              toStop,
              aborted,
              started ? rollbacks.size() : 0,
              Optional.empty(),
              false,
              Optional.empty());
        }
        finalStatus = DeploymentStatus.FAILED;
      } else if (all.stream().allMatch(e -> e.status() == ExecutionStatus.SUCCEEDED)) {
        finalStatus = DeploymentStatus.SUCCEEDED;
      } else {
        finalStatus = DeploymentStatus.REJECTED;
      }
    } else if (deployment.status() == DeploymentStatus.ROLLING_BACK) {
      boolean rollbackFailed =
          all.stream()
              .filter(Execution::rollback)
              .anyMatch(
                  e ->
                      e.status() == ExecutionStatus.FAILED
                          || e.status() == ExecutionStatus.ABORTED);
      finalStatus = rollbackFailed ? DeploymentStatus.ROLLBACK_FAILED : DeploymentStatus.FAILED;
    } else {
      return ongoing;
    }
    if (!deployments.transition(deploymentId, deployment.status(), finalStatus, clock.instant())) {
      return ongoing;
    }
    Optional<Deployment> next =
        finalStatus.isFinished()
            ? startNext.startNext(deployment.pullRequest().repository())
            : Optional.empty();
    return new OutcomeResult(
        true,
        message + "; deployment " + deploymentId + " " + finalStatus.id(),
        toStop,
        aborted,
        0,
        Optional.of(finalStatus),
        finalStatus.isFinished(),
        next);
  }
}
