package io.livegate.statemachine;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.livegate.core.LivegateException;
import io.livegate.core.deploy.ExecutionStatus;

/**
 * What a deploy-flow execution that ran to an end returns: the execution id and the unit's final
 * status. The Step Functions status SUCCEEDED only says the flow reached one of its ends; the
 * unit's outcome is this {@code status}.
 */
public record FlowOutput(long executionId, ExecutionStatus status) {
  public static final String STATUS = "status";

  public static FlowOutput fromJson(String json) {
    String what = "the deploy flow's output";
    ObjectNode node = FlowJson.object(json, what);
    String status = FlowJson.text(node, STATUS, what);
    ExecutionStatus outcome =
        switch (status) {
          case "succeeded" -> ExecutionStatus.SUCCEEDED;
          case "rejected" -> ExecutionStatus.REJECTED;
          case "failed" -> ExecutionStatus.FAILED;
          default -> throw new LivegateException(what + " has an unknown status '" + status + "'");
        };
    return new FlowOutput(FlowJson.number(node, FlowInput.EXECUTION_ID, what), outcome);
  }
}
