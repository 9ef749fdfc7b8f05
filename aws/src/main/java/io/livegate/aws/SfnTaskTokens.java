package io.livegate.aws;

import io.livegate.core.flow.FlowCallback;
import io.livegate.core.flow.FlowDecision;
import io.livegate.statemachine.DeployFlow;
import java.util.function.Supplier;
import software.amazon.awssdk.services.sfn.SfnClient;
import software.amazon.awssdk.services.sfn.model.InvalidTokenException;
import software.amazon.awssdk.services.sfn.model.TaskDoesNotExistException;
import software.amazon.awssdk.services.sfn.model.TaskTimedOutException;

/**
 * Answers the deploy flow's task tokens. Step Functions refuses a token that was answered before or
 * whose wait ended, which is how a second answer changes nothing.
 */
public final class SfnTaskTokens implements FlowCallback {
  private final Supplier<SfnClient> sfn;

  public SfnTaskTokens(SfnClient sfn) {
    this(() -> sfn);
  }

  /** With a client that is built on the first answer (see {@link AwsClients#lazy}). */
  public SfnTaskTokens(Supplier<SfnClient> sfn) {
    this.sfn = sfn;
  }

  /** Ends a waiting Plan with its result. */
  public boolean succeed(String taskToken, String outputJson) {
    try {
      sfn.get().sendTaskSuccess(request -> request.taskToken(taskToken).output(outputJson));
      return true;
    } catch (TaskTimedOutException | TaskDoesNotExistException | InvalidTokenException e) {
      return false;
    }
  }

  @Override
  public boolean decide(String taskToken, FlowDecision decision) {
    String output = "{\"" + DeployFlow.DECISION_FIELD + "\":\"" + decision.id() + "\"}";
    return succeed(taskToken, output);
  }

  @Override
  public boolean fail(String taskToken, String error, String cause) {
    try {
      sfn.get()
          .sendTaskFailure(
              request -> request.taskToken(taskToken).error(error).cause(SfnCause.tail(cause)));
      return true;
    } catch (TaskTimedOutException | TaskDoesNotExistException | InvalidTokenException e) {
      return false;
    }
  }
}
