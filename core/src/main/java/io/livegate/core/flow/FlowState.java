package io.livegate.core.flow;

import java.util.Map;
import java.util.Set;

/**
 * The states of the deploy flow that every execution goes through, and the transitions between
 * them. The local executor and the Step Functions definition (module statemachine) use these names;
 * a conformance test holds both to this table.
 */
public enum FlowState {
  PLAN("Plan"),
  REQUEST_APPROVAL("RequestApproval"),
  DECIDE("Decide"),
  APPLY("Apply"),
  SUCCEEDED("Succeeded"),
  REJECTED("Rejected"),
  FAILED("Failed");

  private static final Map<FlowState, Set<FlowState>> NEXT =
      Map.of(
          PLAN, Set.of(REQUEST_APPROVAL, FAILED),
          REQUEST_APPROVAL, Set.of(DECIDE, FAILED),
          DECIDE, Set.of(APPLY, REJECTED, SUCCEEDED),
          APPLY, Set.of(SUCCEEDED, FAILED),
          SUCCEEDED, Set.of(),
          REJECTED, Set.of(),
          FAILED, Set.of());

  private final String stateName;

  FlowState(String stateName) {
    this.stateName = stateName;
  }

  /** The state's name in the ASL definition and in logs. */
  public String stateName() {
    return stateName;
  }

  public boolean isFinal() {
    return NEXT.get(this).isEmpty();
  }

  /**
   * The states the flow may go to from this one. Decide goes to Succeeded without applying when a
   * plan without changes skips the vote; a vote that times out is decided as a rejection.
   */
  public Set<FlowState> next() {
    return NEXT.get(this);
  }

  /** Whether the flow may go from this state to {@code next}. */
  public boolean leadsTo(FlowState next) {
    return NEXT.get(this).contains(next);
  }
}
