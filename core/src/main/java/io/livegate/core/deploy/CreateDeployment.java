package io.livegate.core.deploy;

import java.time.Clock;
import java.util.Optional;

/**
 * Queues a merged pull request's deployment, then starts the queue's next deployment if none holds
 * the lock. The same merge queued twice is one deployment.
 */
public final class CreateDeployment {
  /**
   * @param deployment the stored deployment
   * @param created false when the merge was already queued
   * @param started the deployment that this call started, if any: the runtime takes the merge lock
   *     and releases its first executions
   */
  public record Result(Deployment deployment, boolean created, Optional<Deployment> started) {}

  private final DeploymentStore deployments;
  private final StartNextDeployment startNext;
  private final Clock clock;

  public CreateDeployment(DeploymentStore deployments, StartNextDeployment startNext, Clock clock) {
    this.deployments = deployments;
    this.startNext = startNext;
    this.clock = clock;
  }

  public Result create(CreateDeploymentCommand command) {
    DeploymentStore.Created created =
        deployments.create(
            command.pullRequest(),
            command.stack().base(),
            StackExecutions.executions(command.stack(), command.accounts(), command.runner()),
            AccountWaits.asLists(AccountWaits.of(command.accounts())),
            clock.instant());
    return new Result(
        created.deployment(),
        created.created(),
        startNext.startNext(command.pullRequest().repository()));
  }
}
