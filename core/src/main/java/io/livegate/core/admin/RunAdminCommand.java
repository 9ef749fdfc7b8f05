package io.livegate.core.admin;

import io.livegate.core.LivegateException;
import io.livegate.core.deploy.AdvanceDeployment;
import io.livegate.core.deploy.Deployment;
import io.livegate.core.deploy.DeploymentStatus;
import io.livegate.core.deploy.DeploymentStore;
import io.livegate.core.deploy.ExecutionStore;
import io.livegate.core.deploy.OperatorCommands;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Runs one {@code livegate admin} command (docs/operations.md) through the engine's {@link
 * AdvanceDeployment}, so the lock passes on exactly as the trigger would pass it. The same use case
 * runs on the local state directory and in the admin Lambda; both answer the same lines.
 */
public final class RunAdminCommand {
  private final DeploymentStore deployments;
  private final ExecutionStore executions;
  private final AdvanceDeployment advance;
  private final OperatorCommands operator;

  public RunAdminCommand(
      DeploymentStore deployments,
      ExecutionStore executions,
      AdvanceDeployment advance,
      OperatorCommands operator) {
    this.deployments = deployments;
    this.executions = executions;
    this.advance = advance;
    this.operator = operator;
  }

  public AdminResult run(AdminCommand command) {
    if (command instanceof AdminCommand.Status) {
      // status needs the execution logs, which the engine does not hold
      throw new LivegateException("status is read by ReadStatus, not run by RunAdminCommand");
    }
    if (command instanceof AdminCommand.RetryScan retry && !operator.launchesScans()) {
      return new AdminResult(
          List.of(
              "this command cannot scan deployment "
                  + retry.deployment()
                  + ": the state directory holds no repository; "
                  + operator.whenNoScanRuns(retry.deployment())),
          false);
    }
    if (command instanceof AdminCommand.RetryScan retry) {
      String message = advance.retryScan(retry.deployment()).message();
      return new AdminResult(List.of(message), message.startsWith("launched "));
    }
    if (command instanceof AdminCommand.Abort abort) {
      boolean unfinished = !finished(abort.deployment());
      String message = advance.abort(abort.deployment(), abort.reason()).message();
      return new AdminResult(List.of(message), unfinished && finished(abort.deployment()));
    }
    if (command instanceof AdminCommand.ReleaseLock release) {
      String message = advance.releaseLock(release.repository()).message();
      return new AdminResult(List.of(message), message.startsWith("released "));
    }
    if (command instanceof AdminCommand.ResolveRollback resolve) {
      String message = advance.rollbackResolved(resolve.execution()).message();
      return new AdminResult(List.of(message), message.startsWith("rollback "));
    }
    return new AdminResult(queue(), true);
  }

  private boolean finished(long deployment) {
    return deployments.find(deployment).map(found -> found.status().isFinished()).orElse(false);
  }

  /** Each repository's lock holder, then the deployments queued behind it, oldest first. */
  private List<String> queue() {
    Map<String, List<Deployment>> byRepository = new LinkedHashMap<>();
    for (Deployment deployment : deployments.all()) {
      byRepository
          .computeIfAbsent(deployment.pullRequest().repository(), r -> new ArrayList<>())
          .add(deployment);
    }
    List<String> lines = new ArrayList<>();
    if (byRepository.isEmpty()) {
      lines.add("no deployments");
    }
    byRepository.forEach(
        (repository, queued) -> {
          Optional<Deployment> holder = deployments.lockHolder(repository);
          lines.add(repository + ": " + holder.map(this::holds).orElse("the lock is free"));
          queued.stream()
              .filter(deployment -> deployment.status() == DeploymentStatus.QUEUED)
              .forEach(
                  waiting ->
                      lines.add(
                          "  waiting: deployment "
                              + waiting.id()
                              + " of pull request #"
                              + waiting.pullRequest().number()
                              + " (merge "
                              + shortSha(waiting.pullRequest().mergeCommit())
                              + ")"));
        });
    return lines;
  }

  private String holds(Deployment holder) {
    String held =
        "deployment "
            + holder.id()
            + " of pull request #"
            + holder.pullRequest().number()
            + " holds the lock ("
            + holder.status().id()
            + ")";
    if (holder.status() == DeploymentStatus.ROLLBACK_FAILED) {
      return held
          + ": a rollback failed; repair what it left by hand, then run "
          + operator.resolveRollback(executions, holder.id());
    }
    if (!holder.stackStored()) {
      return held
          + ": its scan has not stored its units yet; if no scan runs, "
          + operator.whenNoScanRuns(holder.id());
    }
    return held;
  }

  private static String shortSha(String sha) {
    return sha.substring(0, Math.min(12, sha.length()));
  }
}
