package io.livegate.core.deploy;

import java.util.Locale;

/**
 * Where a deployment is. A deployment holds the merge lock from {@link #RUNNING} until it is
 * finished; {@link #ROLLBACK_FAILED} keeps the lock until an operator steps in.
 */
public enum DeploymentStatus {
  /** Waiting for the deployments merged before it. */
  QUEUED,
  RUNNING,
  /** An execution failed; rollback executions are running. */
  ROLLING_BACK,
  SUCCEEDED,
  /** Voters rejected at least one execution; nothing failed. */
  REJECTED,
  /** An execution failed; any rollback finished. */
  FAILED,
  /** A rollback execution failed: the lock stays held and an operator must act. */
  ROLLBACK_FAILED;

  /** Whether the deployment is over and has let go of the lock. */
  public boolean isFinished() {
    return this == SUCCEEDED || this == REJECTED || this == FAILED;
  }

  public String id() {
    return name().toLowerCase(Locale.ROOT);
  }

  public static DeploymentStatus fromId(String id) {
    return valueOf(id.toUpperCase(Locale.ROOT));
  }
}
