package io.livegate.core.stack;

/** How the changed units are found. */
public enum ScanMode {
  /** From the files changed between base and head, through the dependency graph. */
  GRAPH,
  /** From planning every unit and keeping those whose plan shows changes. */
  PLAN
}
