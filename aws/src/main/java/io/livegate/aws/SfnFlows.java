package io.livegate.aws;

import io.livegate.core.LivegateException;
import io.livegate.core.deploy.Execution;
import io.livegate.core.deploy.FlowLauncher;
import io.livegate.statemachine.FlowInput;
import java.time.Duration;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.sfn.SfnClient;
import software.amazon.awssdk.services.sfn.model.ExecutionAlreadyExistsException;
import software.amazon.awssdk.services.sfn.model.ExecutionDoesNotExistException;

/**
 * The deploy flow on Step Functions: one execution per execution record, named by the record's
 * deterministic name, so a retried start finds the first one and counts it as started.
 */
public final class SfnFlows implements FlowLauncher {
  private final SfnClient sfn;
  private final String stateMachineArn;
  private final Duration approvalTimeout;

  public SfnFlows(SfnClient sfn, String stateMachineArn, Duration approvalTimeout) {
    this.sfn = sfn;
    this.stateMachineArn = stateMachineArn;
    this.approvalTimeout = approvalTimeout;
  }

  @Override
  public void start(Execution execution) {
    try {
      sfn.startExecution(
          request ->
              request
                  .stateMachineArn(stateMachineArn)
                  .name(execution.name())
                  .input(FlowInput.of(execution, approvalTimeout).toJson()));
    } catch (ExecutionAlreadyExistsException e) {
      // Started before, by this call's earlier attempt or a repeated event: already running.
    } catch (SdkException e) {
      throw new LivegateException(
          "cannot start the flow of " + execution.name() + ": " + e.getMessage(), e);
    }
  }

  @Override
  public void stop(Execution execution, String cause) {
    try {
      sfn.stopExecution(
          request ->
              request
                  .executionArn(executionArn(execution.name()))
                  .error("livegate.Aborted")
                  .cause(SfnCause.head(cause)));
    } catch (ExecutionDoesNotExistException e) {
      // Its flow never started: nothing to stop.
    } catch (SdkException e) {
      throw new LivegateException(
          "cannot stop the flow of " + execution.name() + ": " + e.getMessage(), e);
    }
  }

  /** The ARN of the execution named {@code name} of this state machine. */
  public String executionArn(String name) {
    return stateMachineArn.replace(":stateMachine:", ":execution:") + ":" + name;
  }
}
