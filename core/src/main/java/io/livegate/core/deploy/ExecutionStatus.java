package io.livegate.core.deploy;

import java.util.Locale;

/** Where an execution is. Only {@link #WAITING} and {@link #RUNNING} are not final. */
public enum ExecutionStatus {
  WAITING,
  RUNNING,
  SUCCEEDED,
  FAILED,
  REJECTED,
  ABORTED;

  public boolean isTerminal() {
    return this != WAITING && this != RUNNING;
  }

  /** The name stored in the metadb and shown to people: lower case. */
  public String id() {
    return name().toLowerCase(Locale.ROOT);
  }

  public static ExecutionStatus fromId(String id) {
    return valueOf(id.toUpperCase(Locale.ROOT));
  }
}
