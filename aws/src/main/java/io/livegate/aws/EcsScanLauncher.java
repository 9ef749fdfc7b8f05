package io.livegate.aws;

import io.livegate.core.deploy.Deployment;
import io.livegate.core.deploy.MergedPullRequest;
import io.livegate.core.deploy.ScanLauncher;
import io.livegate.statemachine.RuntimeContract;
import java.util.List;
import java.util.Optional;

/**
 * Starts create-deploy-stack for a deployment that holds the lock: an ECS task whose command names
 * the merge ({@value RuntimeContract.Scan#TASK_DEFINITION} is its task definition).
 */
public final class EcsScanLauncher implements ScanLauncher {
  private final EcsTasks tasks;
  private final String taskDefinition;

  public EcsScanLauncher(EcsTasks tasks, String taskDefinition) {
    this.tasks = tasks;
    this.taskDefinition = taskDefinition;
  }

  @Override
  public void launch(Deployment deployment) {
    tasks.run(
        taskDefinition,
        command(deployment.pullRequest()),
        "livegate-" + deployment.id(),
        Optional.empty(),
        "create-deploy-stack of deployment " + deployment.id());
  }

  /**
   * create-deploy-stack's argv for the merge: every value is one {@code --option=value} element, so
   * a branch name, even one that looks like an option, stays the value it is.
   */
  public static List<String> command(MergedPullRequest merge) {
    return List.of(
        "create-deploy-stack",
        "--repository=" + merge.repository(),
        "--pull-request=" + merge.number(),
        "--base-ref=" + (merge.baseRef() == null ? "" : merge.baseRef()),
        "--head-ref=" + (merge.headRef() == null ? "" : merge.headRef()),
        "--base-sha=" + merge.baseCommit(),
        "--merge-sha=" + merge.mergeCommit());
  }
}
