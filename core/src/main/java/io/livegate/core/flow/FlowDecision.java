package io.livegate.core.flow;

/**
 * How RequestApproval ends, as Decide reads it: only {@link #APPROVED} applies, {@link #SKIPPED} (a
 * plan without changes, when the installation skips empty plans) succeeds without applying, and
 * anything else, a timeout included, is a rejection.
 */
public enum FlowDecision {
  APPROVED("approved"),
  REJECTED("rejected"),
  SKIPPED("skipped");

  private final String id;

  FlowDecision(String id) {
    this.id = id;
  }

  /** The value at {@code $.decision.decision} in the Step Functions definition. */
  public String id() {
    return id;
  }
}
