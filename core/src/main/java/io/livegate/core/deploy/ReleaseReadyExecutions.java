package io.livegate.core.deploy;

import java.time.Clock;
import java.util.List;

/**
 * Releases every ready execution of a deployment: claims it (waiting to running) so that the
 * runtime starts its flow under {@link Execution#name()}. Racing callers never release one twice.
 */
public final class ReleaseReadyExecutions {
  private final DeploymentStore deployments;
  private final ExecutionStore executions;
  private final Clock clock;

  public ReleaseReadyExecutions(
      DeploymentStore deployments, ExecutionStore executions, Clock clock) {
    this.deployments = deployments;
    this.executions = executions;
    this.clock = clock;
  }

  /**
   * The executions released by this call, sorted by unit id; empty if the deployment is not active.
   */
  public List<Execution> release(long deploymentId) {
    boolean active =
        deployments
            .find(deploymentId)
            .map(
                deployment ->
                    deployment.status() == DeploymentStatus.RUNNING
                        || deployment.status() == DeploymentStatus.ROLLING_BACK)
            .orElse(false);
    return active ? executions.claimReady(deploymentId, clock.instant()) : List.of();
  }
}
