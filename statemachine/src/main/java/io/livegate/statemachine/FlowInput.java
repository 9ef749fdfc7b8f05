package io.livegate.statemachine;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.livegate.core.deploy.Execution;
import java.time.Duration;

/**
 * The input of one deploy-flow execution: the execution record's identity. Everything else
 * (commands, roles, voters, thresholds) stays in the metadb, where the tasks and Lambdas read it by
 * {@code executionId}, so the input can never disagree with the record.
 *
 * @param approvalTimeoutSeconds how long RequestApproval waits for a decision
 */
public record FlowInput(
    long executionId,
    String executionName,
    long deploymentId,
    String unit,
    String account,
    boolean rollback,
    long approvalTimeoutSeconds) {
  public static final String EXECUTION_ID = "executionId";
  public static final String EXECUTION_NAME = "executionName";
  public static final String DEPLOYMENT_ID = "deploymentId";
  public static final String UNIT = "unit";
  public static final String ACCOUNT = "account";
  public static final String ROLLBACK = "rollback";
  public static final String APPROVAL_TIMEOUT_SECONDS = "approvalTimeoutSeconds";

  public static FlowInput of(Execution execution, Duration approvalTimeout) {
    return new FlowInput(
        execution.id(),
        execution.name(),
        execution.deploymentId(),
        execution.unit(),
        execution.account(),
        execution.rollback(),
        approvalTimeout.toSeconds());
  }

  public String toJson() {
    ObjectNode node = FlowJson.MAPPER.createObjectNode();
    node.put(EXECUTION_ID, executionId);
    node.put(EXECUTION_NAME, executionName);
    node.put(DEPLOYMENT_ID, deploymentId);
    node.put(UNIT, unit);
    node.put(ACCOUNT, account);
    node.put(ROLLBACK, rollback);
    node.put(APPROVAL_TIMEOUT_SECONDS, approvalTimeoutSeconds);
    return node.toString();
  }

  public static FlowInput fromJson(String json) {
    String what = "the deploy flow's input";
    ObjectNode node = FlowJson.object(json, what);
    return new FlowInput(
        FlowJson.number(node, EXECUTION_ID, what),
        FlowJson.text(node, EXECUTION_NAME, what),
        FlowJson.number(node, DEPLOYMENT_ID, what),
        FlowJson.text(node, UNIT, what),
        FlowJson.text(node, ACCOUNT, what),
        node.path(ROLLBACK).asBoolean(false),
        FlowJson.number(node, APPROVAL_TIMEOUT_SECONDS, what));
  }
}
