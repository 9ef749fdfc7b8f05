package io.livegate.core.deploy;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * What the trigger does on AWS: when a deployment is created, and whenever a flow ends, it records
 * the outcome through the engine, stops the flows of aborted executions, starts a flow for every
 * execution that became ready, and hands the merge lock from a finished deployment to the next one.
 * Every step is idempotent, so a repeated event changes nothing.
 */
public final class AdvanceDeployment {
  /** What one call did, for the log. */
  public record Advanced(
      String message, List<Execution> started, List<Execution> stopped, Optional<Long> next) {}

  private final DeploymentStore deployments;
  private final ExecutionStore executions;
  private final ReleaseReadyExecutions release;
  private final RecordOutcome outcomes;
  private final StartNextDeployment startNext;
  private final FlowLauncher flows;
  private final MergeLock lock;

  public AdvanceDeployment(
      DeploymentStore deployments,
      ExecutionStore executions,
      ReleaseReadyExecutions release,
      RecordOutcome outcomes,
      StartNextDeployment startNext,
      FlowLauncher flows,
      MergeLock lock) {
    this.deployments = deployments;
    this.executions = executions;
    this.release = release;
    this.outcomes = outcomes;
    this.startNext = startNext;
    this.flows = flows;
    this.lock = lock;
  }

  /**
   * A deployment was stored and started: start the flows of its ready executions. Executions that
   * are already running (an earlier call claimed them, then died before starting their flows) are
   * started again, which the launcher makes harmless.
   */
  public Advanced created(long deploymentId) {
    Optional<Deployment> deployment = deployments.find(deploymentId);
    if (deployment.isEmpty()) {
      return new Advanced(
          "there is no deployment " + deploymentId, List.of(), List.of(), Optional.empty());
    }
    DeploymentStatus status = deployment.get().status();
    if (status != DeploymentStatus.RUNNING && status != DeploymentStatus.ROLLING_BACK) {
      return new Advanced(
          "deployment "
              + deploymentId
              + " is "
              + status.id()
              + (status == DeploymentStatus.QUEUED ? " behind an unfinished one" : "")
              + "; nothing to start",
          List.of(),
          List.of(),
          Optional.empty());
    }
    lock.acquire(deployment.get().pullRequest());
    List<Execution> started = startable(deploymentId, true);
    started.forEach(flows::start);
    return new Advanced(
        "deployment " + deploymentId + ": started " + started.size() + " flows",
        started,
        List.of(),
        Optional.empty());
  }

  /**
   * The flow of the execution named {@code executionName} ended with {@code outcome}. When the
   * outcome was recorded before (a repeated event, or a retry after a crash part-way through), the
   * call also heals what the first one may have left undone: it starts the flows of running
   * executions again and hands the lock on.
   */
  public Advanced flowEnded(String executionName, ExecutionStatus outcome) {
    Optional<Execution> found = executions.findByName(executionName);
    if (found.isEmpty()) {
      return new Advanced(
          "no execution is named " + executionName + "; ignored",
          List.of(),
          List.of(),
          Optional.empty());
    }
    Execution execution = found.get();
    OutcomeResult result = outcomes.record(execution.id(), outcome);
    result.toStop().forEach(stopped -> flows.stop(stopped, "aborted: " + result.message()));
    boolean healing = !result.recorded();
    Deployment deployment = deployments.find(execution.deploymentId()).orElseThrow();
    List<Execution> started = startable(deployment.id(), healing);
    Optional<Long> next = Optional.empty();
    if (deployment.status().isFinished()) {
      lock.release(deployment.pullRequest());
      // When healing, the first call may have died after finishing the deployment and before
      // starting the next one, so the queue is tried again; else the lock holder is found.
      Optional<Deployment> active =
          result.next().isPresent() || !healing
              ? result.next()
              : startNext
                  .startNext(deployment.pullRequest().repository())
                  .or(() -> holderOfTheLock(deployment.pullRequest().repository()));
      if (active.isPresent()) {
        next = Optional.of(active.get().id());
        lock.acquire(active.get().pullRequest());
        started.addAll(startable(active.get().id(), healing));
      }
    }
    started.forEach(flows::start);
    return new Advanced(result.message(), started, result.toStop(), next);
  }

  /** The unfinished deployment of the repository that holds the metadb's lock, if any. */
  private Optional<Deployment> holderOfTheLock(String repository) {
    return deployments.list(repository).stream()
        .filter(d -> d.status() != DeploymentStatus.QUEUED && !d.status().isFinished())
        .findFirst();
  }

  /** The executions that became ready, and when healing those already running too. */
  private List<Execution> startable(long deploymentId, boolean healing) {
    List<Execution> startable = new ArrayList<>();
    if (healing) {
      executions.list(deploymentId).stream()
          .filter(e -> e.status() == ExecutionStatus.RUNNING)
          .forEach(startable::add);
    }
    startable.addAll(release.release(deploymentId));
    return startable;
  }
}
