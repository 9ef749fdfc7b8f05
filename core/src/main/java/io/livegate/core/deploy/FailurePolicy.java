package io.livegate.core.deploy;

/** What a failed or rejected execution does to the rest of its deployment. */
public enum FailurePolicy {
  /**
   * Abort every execution that depends on it, transitively, and every execution of an account that
   * depends on its account. Independent executions go on. The default.
   */
  ABORT_DEPENDENTS,
  /** Abort every unfinished execution of the deployment, as the reference design did. */
  ABORT_ALL
}
