package io.livegate.core.deploy;

import java.util.List;

/**
 * How an operator runs {@code livegate admin} in this runtime ({@code livegate admin} on the local
 * state directory, {@code livegate admin --aws} through the admin Lambda), so that every status,
 * page and answer that asks for an operator names the exact command to run.
 *
 * @param prefix the command line up to the subcommand
 * @param launchesScans whether {@code retry-scan} can launch a scan from here: on AWS the admin
 *     Lambda runs the create-deploy-stack task; the local state directory holds no repository to
 *     scan, and {@code livegate serve} scans the deployment holding the lock when it starts
 */
public record OperatorCommands(String prefix, boolean launchesScans) {
  public static final OperatorCommands LOCAL = new OperatorCommands("livegate admin", false);
  public static final OperatorCommands AWS = new OperatorCommands("livegate admin --aws", true);

  /** What to do when deployment {@code deploymentId} holds the lock and no scan runs for it. */
  public String whenNoScanRuns(long deploymentId) {
    return launchesScans
        ? "run " + prefix + " retry-scan " + deploymentId
        : "start livegate serve: it scans the deployment holding the lock when it starts";
  }

  /**
   * The command that resolves the deployment held in {@code rollback_failed}: it names the first
   * failed rollback execution ({@code EXECUTION} when there is none to name).
   */
  public String resolveRollback(ExecutionStore executions, long deploymentId) {
    List<Long> failed =
        executions.list(deploymentId).stream()
            .filter(e -> e.rollback() && e.status() == ExecutionStatus.FAILED)
            .map(Execution::id)
            .toList();
    return prefix + " resolve-rollback " + (failed.isEmpty() ? "EXECUTION" : failed.get(0));
  }

  /** The command that aborts deployment {@code deploymentId}. */
  public String abort(long deploymentId) {
    return prefix + " abort " + deploymentId;
  }
}
