package io.livegate.aws;

import io.livegate.core.deploy.Deployment;
import io.livegate.core.deploy.MergedPullRequest;
import io.livegate.core.deploy.ScanLauncher;
import io.livegate.statemachine.RuntimeContract;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * Starts create-deploy-stack for a deployment that holds the lock: an ECS task whose command names
 * the merge ({@value RuntimeContract.Scan#TASK_DEFINITION} is its task definition). The start
 * carries a client token of the deployment, so launching a deployment's scan again (a redelivered
 * merge whose first launch may or may not have started the task) starts at most one task.
 */
public final class EcsScanLauncher implements ScanLauncher {
  /** A scan task's {@code startedBy}, followed by its deployment's id. */
  private static final String STARTED_BY = "livegate-";

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
        STARTED_BY + deployment.id(),
        Optional.of(clientToken(deployment)),
        "create-deploy-stack of deployment " + deployment.id());
  }

  /** The deployment whose scan task was started by {@code startedBy}; empty for another task. */
  public static OptionalLong deploymentOf(String startedBy) {
    if (startedBy != null && startedBy.matches(STARTED_BY + "[0-9]{1,18}")) {
      return OptionalLong.of(Long.parseLong(startedBy.substring(STARTED_BY.length())));
    }
    return OptionalLong.empty();
  }

  /** The RunTask client token of the deployment's scan: one scan task per deployment. */
  public static String clientToken(Deployment deployment) {
    return "livegate-scan-" + deployment.id();
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
        "--merge-sha=" + merge.mergeCommit(),
        "--head-sha=" + (merge.headCommit() == null ? "" : merge.headCommit()),
        "--commits=" + merge.commits());
  }
}
