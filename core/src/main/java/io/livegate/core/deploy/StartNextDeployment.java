package io.livegate.core.deploy;

import java.time.Clock;
import java.util.Optional;

/**
 * Starts the next queued deployment when none holds the lock. A deployment whose stack is stored
 * but has nothing to deploy succeeds at once and the one after it is tried; one whose stack is not
 * stored yet is returned for its scan to be launched.
 */
public final class StartNextDeployment {
  private final DeploymentStore deployments;
  private final ExecutionStore executions;
  private final Clock clock;

  public StartNextDeployment(DeploymentStore deployments, ExecutionStore executions, Clock clock) {
    this.deployments = deployments;
    this.executions = executions;
    this.clock = clock;
  }

  /** The deployment started, if any. */
  public Optional<Deployment> startNext(String repository) {
    while (true) {
      Optional<Deployment> started = deployments.startNext(repository, clock.instant());
      if (started.isEmpty()
          || !started.get().stackStored()
          || !executions.list(started.get().id()).isEmpty()) {
        return started;
      }
      deployments.transition(
          started.get().id(),
          DeploymentStatus.RUNNING,
          DeploymentStatus.SUCCEEDED,
          clock.instant());
    }
  }
}
