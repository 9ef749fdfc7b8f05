package io.livegate.core.testing;

import io.livegate.core.flow.FlowState;
import java.util.ArrayList;
import java.util.List;

/**
 * The conformance check of a recorded deploy flow against {@link FlowState}'s table: the states an
 * execution went through, read back from its flow events, must start at Plan, follow only allowed
 * transitions, and end in a final state. Every runtime (the local executor, Step Functions) is held
 * to it.
 */
public final class FlowPath {
  /** The detail of the event a resumed run records when it enters the interrupted state again. */
  private static final String RESUMED = "resumed";

  private FlowPath() {}

  /**
   * The states of the flow events ("State" or "State: detail"), in order. Re-entering a state after
   * an interruption is the same visit, so it is not repeated.
   */
  public static List<FlowState> of(List<String> flowEvents) {
    List<FlowState> path = new ArrayList<>();
    for (String event : flowEvents) {
      int colon = event.indexOf(": ");
      FlowState state = named(colon < 0 ? event : event.substring(0, colon));
      boolean resumed = colon >= 0 && event.substring(colon + 2).equals(RESUMED);
      if (!(resumed && !path.isEmpty() && path.get(path.size() - 1) == state)) {
        path.add(state);
      }
    }
    return path;
  }

  /**
   * Checks that the events form a whole flow ending in {@code end}.
   *
   * @return the path, for further assertions
   * @throws AssertionError naming the first step the table does not allow
   */
  public static List<FlowState> requireComplete(List<String> flowEvents, FlowState end) {
    List<FlowState> path = of(flowEvents);
    if (path.isEmpty() || path.get(0) != FlowState.PLAN) {
      throw new AssertionError("a flow starts at Plan, but these events do not: " + flowEvents);
    }
    for (int step = 1; step < path.size(); step++) {
      if (!path.get(step - 1).leadsTo(path.get(step))) {
        throw new AssertionError(
            path.get(step - 1).stateName()
                + " does not lead to "
                + path.get(step).stateName()
                + " in the flow table; events: "
                + flowEvents);
      }
    }
    if (path.get(path.size() - 1) != end) {
      throw new AssertionError(
          "the flow should end in " + end.stateName() + "; events: " + flowEvents);
    }
    return path;
  }

  private static FlowState named(String name) {
    for (FlowState state : FlowState.values()) {
      if (state.stateName().equals(name)) {
        return state;
      }
    }
    throw new AssertionError("'" + name + "' is not a state of the deploy flow");
  }
}
