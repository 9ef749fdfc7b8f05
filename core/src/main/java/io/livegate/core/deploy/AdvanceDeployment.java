package io.livegate.core.deploy;

import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * What the trigger does on AWS, and what the webhook receiver does with a merge: it queues merges,
 * records the outcomes of flows through the engine, stops the flows of aborted executions, starts a
 * flow for every execution that became ready, and hands the merge lock from a finished deployment
 * to the next one, launching that one's scan when its change set is not stored yet. Every step is
 * idempotent, so a repeated event changes nothing.
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
  private final ScanLauncher scans;
  private final MergeLock lock;
  private final OperatorCommands operator;
  private final Clock clock;

  /** The engine's steps that advancing a deployment goes through. */
  public record Steps(
      ReleaseReadyExecutions release, RecordOutcome outcomes, StartNextDeployment startNext) {}

  /** What a runtime does outside the metadb when a deployment advances. */
  public record Effects(FlowLauncher flows, ScanLauncher scans, MergeLock lock) {}

  public AdvanceDeployment(
      DeploymentStore deployments,
      ExecutionStore executions,
      Steps steps,
      Effects effects,
      OperatorCommands operator,
      Clock clock) {
    this.deployments = deployments;
    this.executions = executions;
    this.release = steps.release();
    this.outcomes = steps.outcomes();
    this.startNext = steps.startNext();
    this.flows = effects.flows();
    this.scans = effects.scans();
    this.lock = effects.lock();
    this.operator = operator;
    this.clock = clock;
  }

  /**
   * GitHub reported a merge: queue its deployment in merge order and, when no deployment holds the
   * lock, start the oldest queued one. The same merge reported twice is queued once.
   *
   * <p>Starting marks the deployment running before its scan is launched, so a launch that threw
   * (RunTask or SSM failed; the webhook answers 503 and GitHub redelivers) would leave it holding
   * the lock with no scan. So a merge reported again whose deployment holds the lock without its
   * stack gets its scan launched again: the launcher is idempotent (on AWS an ECS client token per
   * deployment), so a scan that did start is not started twice.
   */
  public Advanced merged(MergedPullRequest merge) {
    DeploymentStore.Created queued = deployments.enqueue(merge, clock.instant());
    Deployment deployment = queued.deployment();
    List<Execution> started = new ArrayList<>();
    Optional<Deployment> active = startNext.startNext(merge.repository());
    active.ifPresent(next -> started.addAll(activate(next, false)));
    Optional<Deployment> unscanned =
        active.isPresent() || queued.created()
            ? Optional.empty()
            : deployments
                .lockHolder(merge.repository())
                .filter(holder -> holder.id() == deployment.id() && !holder.stackStored());
    unscanned.ifPresent(holder -> activate(holder, true));
    String message =
        (queued.created() ? "queued" : "already queued")
            + " deployment "
            + deployment.id()
            + " of pull request #"
            + merge.number()
            + active.map(next -> "; started deployment " + next.id()).orElse("")
            + unscanned
                .map(holder -> "; launched the scan of deployment " + holder.id() + " again")
                .orElse("");
    started.forEach(flows::start);
    return new Advanced(message, started, List.of(), active.map(Deployment::id));
  }

  /**
   * A deployment was started or its stack was stored: start the flows of its ready executions, or
   * launch its scan when the stack is not stored yet. Executions that are already running (an
   * earlier call claimed them, then died before starting their flows) are started again, which the
   * launcher makes harmless. A stack with nothing to deploy finishes the deployment, and the lock
   * passes on.
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
    if (!deployment.get().stackStored()) {
      // It holds the lock without its stack (started by a call that died before launching its
      // scan, or by create-deploy-stack for another merge): its scan is launched (again).
      activate(deployment.get(), true);
      return new Advanced(
          "deployment " + deploymentId + " has no stored stack yet; launched its scan",
          List.of(),
          List.of(),
          Optional.empty());
    }
    if (executions.list(deploymentId).isEmpty()
        && deployments.transition(
            deploymentId, DeploymentStatus.RUNNING, DeploymentStatus.SUCCEEDED, clock.instant())) {
      Advanced handed = handOn(deployment.get(), false);
      handed.started().forEach(flows::start);
      return new Advanced(
          "deployment " + deploymentId + " has nothing to deploy: succeeded" + handed.message(),
          handed.started(),
          List.of(),
          handed.next());
    }
    List<Execution> started = activate(deployment.get(), true);
    started.forEach(flows::start);
    return new Advanced(
        "deployment " + deploymentId + ": started " + started.size() + " flows",
        started,
        List.of(),
        Optional.empty());
  }

  /**
   * create-deploy-stack could not store the deployment's stack (the checkout or the scan failed):
   * the deployment fails with nothing stored, and the lock passes to the next merge. Reported
   * twice, the second report heals what the first left undone.
   */
  public Advanced scanFailed(long deploymentId, String reason) {
    Optional<Deployment> found = deployments.find(deploymentId);
    if (found.isEmpty()) {
      return new Advanced(
          "there is no deployment " + deploymentId, List.of(), List.of(), Optional.empty());
    }
    Deployment deployment = found.get();
    if (deployment.stackStored()) {
      return new Advanced(
          "deployment "
              + deploymentId
              + " has its stack stored; a failed scan of it changes nothing",
          List.of(),
          List.of(),
          Optional.empty());
    }
    boolean failed =
        deployments.transition(
            deploymentId, DeploymentStatus.RUNNING, DeploymentStatus.FAILED, clock.instant());
    if (!failed
        && deployments.find(deploymentId).orElseThrow().status() != DeploymentStatus.FAILED) {
      return new Advanced(
          "deployment " + deploymentId + " is not running; its failed scan changes nothing",
          List.of(),
          List.of(),
          Optional.empty());
    }
    Advanced handed = handOn(deployment, !failed);
    handed.started().forEach(flows::start);
    return new Advanced(
        "deployment "
            + deploymentId
            + (failed ? " failed: " : " had failed: ")
            + reason
            + handed.message(),
        handed.started(),
        List.of(),
        handed.next());
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
      if (healing) {
        // The first call may have died before the lock passed on, so the queue is tried again.
        Advanced handed = handOn(deployment, true);
        started.addAll(handed.started());
        next = handed.next();
      } else {
        // The engine started the next deployment when it finished this one.
        lock.release(deployment.pullRequest());
        if (result.next().isPresent()) {
          next = Optional.of(result.next().get().id());
          started.addAll(activate(result.next().get(), false));
        }
      }
    }
    started.forEach(flows::start);
    return new Advanced(result.message(), started, result.toStop(), next);
  }

  /**
   * An operator aborts a deployment that holds the lock ({@code livegate admin abort}): its scan is
   * failed when its stack was never stored; otherwise its waiting and running executions are
   * aborted and their flows stopped, and it fails and passes the lock on. An execution that has
   * entered Apply is never aborted: the deployment then stays until it ends, and the abort says so
   * (run it again afterwards).
   */
  public Advanced abort(long deploymentId, String reason) {
    Optional<Deployment> found = deployments.find(deploymentId);
    if (found.isEmpty()) {
      return nothing("there is no deployment " + deploymentId);
    }
    Deployment deployment = found.get();
    DeploymentStatus status = deployment.status();
    if (status != DeploymentStatus.RUNNING && status != DeploymentStatus.ROLLING_BACK) {
      return nothing(
          "deployment "
              + deploymentId
              + " is "
              + status.id()
              + (status == DeploymentStatus.ROLLBACK_FAILED
                  ? "; repair what its rollback left, then run "
                      + operator.resolveRollback(executions, deploymentId)
                  : "; only a running or rolling-back deployment can be aborted"));
    }
    if (!deployment.stackStored()) {
      return scanFailed(deploymentId, "aborted by an operator: " + reason);
    }
    List<Long> unfinished =
        executions.list(deploymentId).stream()
            .filter(execution -> !execution.status().isTerminal())
            .map(Execution::id)
            .toList();
    List<Execution> aborted =
        executions.abort(
            unfinished,
            java.util.Set.of(ExecutionStatus.WAITING, ExecutionStatus.RUNNING),
            clock.instant());
    aborted.stream()
        .filter(execution -> execution.status() == ExecutionStatus.RUNNING)
        .forEach(execution -> flows.stop(execution, "aborted by an operator: " + reason));
    if (executions.anyUnfinished(deploymentId)) {
      return new Advanced(
          "deployment "
              + deploymentId
              + ": aborted "
              + aborted.size()
              + " executions; an execution is applying and is left to finish: run the abort"
              + " again once it has ended",
          List.of(),
          aborted,
          Optional.empty());
    }
    if (!deployments.transition(deploymentId, status, DeploymentStatus.FAILED, clock.instant())) {
      return nothing("deployment " + deploymentId + " changed meanwhile; look at it again");
    }
    Advanced handed = handOn(deployment, true);
    handed.started().forEach(flows::start);
    return new Advanced(
        "deployment "
            + deploymentId
            + " aborted by an operator ("
            + reason
            + "): "
            + aborted.size()
            + " executions aborted, failed"
            + handed.message(),
        handed.started(),
        aborted,
        handed.next());
  }

  /**
   * An operator has repaired by hand what a failed rollback execution left ({@code livegate admin
   * resolve-rollback}): its deployment, held in {@code rollback_failed}, fails and passes the lock
   * on. The execution's record stays as it ended.
   */
  public Advanced rollbackResolved(long executionId) {
    Optional<Execution> found = executions.find(executionId);
    if (found.isEmpty()) {
      return nothing("there is no execution " + executionId);
    }
    Execution execution = found.get();
    Deployment deployment = deployments.find(execution.deploymentId()).orElseThrow();
    if (deployment.status() != DeploymentStatus.ROLLBACK_FAILED
        || !execution.rollback()
        || execution.status() != ExecutionStatus.FAILED) {
      return nothing(
          "execution "
              + executionId
              + " is not a failed rollback of a deployment in rollback_failed (deployment "
              + deployment.id()
              + " is "
              + deployment.status().id()
              + "); nothing resolved");
    }
    if (!deployments.transition(
        deployment.id(),
        DeploymentStatus.ROLLBACK_FAILED,
        DeploymentStatus.FAILED,
        clock.instant())) {
      return nothing("deployment " + deployment.id() + " changed meanwhile; look at it again");
    }
    Advanced handed = handOn(deployment, true);
    handed.started().forEach(flows::start);
    return new Advanced(
        "rollback "
            + execution.unit()
            + " of deployment "
            + deployment.id()
            + " resolved by an operator: the deployment failed"
            + handed.message(),
        handed.started(),
        List.of(),
        handed.next());
  }

  /**
   * An operator releases a merge lock that no unfinished deployment holds ({@code livegate admin
   * release-lock}): a lock left behind by a call that died after its deployment finished. The
   * newest finished deployment hands it on, as the trigger would have.
   */
  public Advanced releaseLock(String repository) {
    Optional<Deployment> holder = deployments.lockHolder(repository);
    if (holder.isPresent()) {
      return nothing(
          "deployment "
              + holder.get().id()
              + " ("
              + holder.get().status().id()
              + ") holds the lock of "
              + repository
              + ": run "
              + operator.abort(holder.get().id())
              + " instead");
    }
    Optional<Deployment> last = Optional.empty();
    for (Deployment deployment : deployments.list(repository)) {
      if (deployment.status().isFinished()) {
        last = Optional.of(deployment);
      }
    }
    if (last.isEmpty()) {
      return nothing(
          "no deployment of " + repository + " has finished; there is no lock to release");
    }
    Advanced handed = handOn(last.get(), true);
    handed.started().forEach(flows::start);
    return new Advanced(
        "released the lock of "
            + repository
            + " that deployment "
            + last.get().id()
            + " held"
            + handed.message(),
        handed.started(),
        List.of(),
        handed.next());
  }

  /**
   * An operator launches again the scan of a deployment that holds the lock but whose scan never
   * reported ({@code livegate admin --aws retry-scan}). The launch is the one a redelivered merge
   * makes: on AWS it carries the deployment's ECS client token, so a scan task that did start is
   * not started twice. A deployment with its stack stored, or one that does not hold the lock, is
   * refused.
   */
  public Advanced retryScan(long deploymentId) {
    Optional<Deployment> found = deployments.find(deploymentId);
    if (found.isEmpty()) {
      return nothing("there is no deployment " + deploymentId);
    }
    Deployment deployment = found.get();
    if (deployment.stackStored()) {
      return nothing(
          "deployment "
              + deploymentId
              + " has its stack stored ("
              + deployment.status().id()
              + "); there is no scan to retry");
    }
    if (deployment.status() != DeploymentStatus.RUNNING) {
      return nothing(
          "deployment "
              + deploymentId
              + " is "
              + deployment.status().id()
              + (deployment.status() == DeploymentStatus.QUEUED
                  ? "; it is scanned when it takes the lock"
                  : "; there is no scan to retry"));
    }
    activate(deployment, true);
    return new Advanced(
        "launched the scan of deployment " + deploymentId + " again",
        List.of(),
        List.of(),
        Optional.empty());
  }

  private static Advanced nothing(String message) {
    return new Advanced(message, List.of(), List.of(), Optional.empty());
  }

  /**
   * A finished deployment passes the lock on: release it, start the next queued deployment (when
   * healing, also find one that an earlier call started) and activate it.
   */
  private Advanced handOn(Deployment finished, boolean healing) {
    lock.release(finished.pullRequest());
    String repository = finished.pullRequest().repository();
    Optional<Deployment> active =
        healing
            ? startNext.startNext(repository).or(() -> deployments.lockHolder(repository))
            : startNext.startNext(repository);
    List<Execution> started = active.map(next -> activate(next, healing)).orElseGet(ArrayList::new);
    return new Advanced(
        active.map(next -> "; started deployment " + next.id()).orElse(""),
        started,
        List.of(),
        active.map(Deployment::id));
  }

  /**
   * The deployment holds the metadb's lock: take the outward lock for it, then launch its scan when
   * its stack is not stored yet, or return its startable executions.
   */
  private List<Execution> activate(Deployment deployment, boolean healing) {
    lock.acquire(deployment.pullRequest());
    if (!deployment.stackStored()) {
      scans.launch(deployment);
      return new ArrayList<>();
    }
    return startable(deployment.id(), healing);
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
