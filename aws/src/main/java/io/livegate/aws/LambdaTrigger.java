package io.livegate.aws;

import io.livegate.core.LivegateException;
import java.nio.charset.StandardCharsets;
import java.util.function.Consumer;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.lambda.LambdaClient;
import software.amazon.awssdk.services.lambda.model.InvocationType;

/**
 * Sends the trigger Lambda an event ({@code statemachine}'s {@code TriggerEvent}) as an
 * asynchronous invoke: Lambda queues it, retries the trigger's failures and sends what still fails
 * to the trigger's dead-letter queue, so the sender waits only for the queueing.
 */
public final class LambdaTrigger implements Consumer<String> {
  private final LambdaClient lambda;
  private final String function;

  /**
   * @param function the trigger's name or ARN (its live alias)
   */
  public LambdaTrigger(LambdaClient lambda, String function) {
    this.lambda = lambda;
    this.function = function;
  }

  @Override
  public void accept(String payload) {
    try {
      lambda.invoke(
          request ->
              request
                  .functionName(function)
                  .invocationType(InvocationType.EVENT)
                  .payload(SdkBytes.fromString(payload, StandardCharsets.UTF_8)));
    } catch (SdkException e) {
      throw new LivegateException(
          "cannot send the trigger " + function + " an event: " + e.getMessage(), e);
    }
  }
}
