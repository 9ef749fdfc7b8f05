package io.livegate.statemachine;

import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * The message RequestApproval publishes to the approval topic: the task token that the deciding
 * vote returns, the execution, and its plan.
 */
public record ApprovalRequest(
    String taskToken, long executionId, String executionName, PlanResult plan) {
  public static final String TASK_TOKEN = "taskToken";
  public static final String PLAN = "plan";

  public static ApprovalRequest fromJson(String json) {
    String what = "an approval request";
    ObjectNode node = FlowJson.object(json, what);
    return new ApprovalRequest(
        FlowJson.text(node, TASK_TOKEN, what),
        FlowJson.number(node, FlowInput.EXECUTION_ID, what),
        FlowJson.text(node, FlowInput.EXECUTION_NAME, what),
        PlanResult.fromNode(FlowJson.child(node, PLAN, what)));
  }

  /** The message as the state machine publishes it; tests play RequestApproval with it. */
  public String toJson() {
    ObjectNode node = FlowJson.MAPPER.createObjectNode();
    node.put(TASK_TOKEN, taskToken);
    node.put(FlowInput.EXECUTION_ID, executionId);
    node.put(FlowInput.EXECUTION_NAME, executionName);
    node.set(PLAN, plan.toNode());
    return node.toString();
  }
}
