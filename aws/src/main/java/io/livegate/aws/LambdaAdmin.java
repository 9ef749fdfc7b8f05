package io.livegate.aws;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.livegate.core.LivegateException;
import io.livegate.core.admin.AdminCommand;
import io.livegate.core.admin.AdminResult;
import io.livegate.core.admin.Console;
import io.livegate.statemachine.AdminCall;
import io.livegate.statemachine.FlowJson;
import java.io.IOException;
import java.net.URI;
import java.util.Optional;
import software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.http.apache5.Apache5HttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.lambda.LambdaClient;
import software.amazon.awssdk.services.lambda.LambdaClientBuilder;
import software.amazon.awssdk.services.lambda.model.InvocationType;
import software.amazon.awssdk.services.lambda.model.InvokeResponse;

/**
 * {@code livegate admin --aws} (and {@code status} and {@code ui} with {@code --aws}): runs an
 * operator command, or reads a console page, in the admin Lambda, invoked with {@code
 * lambda:Invoke} as the operator (the SDK's default credentials chain: environment, profile, SSO,
 * instance role; requests signed with SigV4). The Lambda has no URL; IAM decides who may run it.
 */
public final class LambdaAdmin implements AutoCloseable {
  private final LambdaClient lambda;
  private final String function;

  public LambdaAdmin(LambdaClient lambda, String function) {
    this.lambda = lambda;
    this.function = function;
  }

  /**
   * A client as the operator's machine configures it, in {@code region} (else the SDK's default
   * region chain), and at {@code endpoint} when given (a VPC endpoint).
   */
  public static LambdaAdmin connect(
      String function, Optional<String> region, Optional<URI> endpoint) {
    LambdaClientBuilder builder =
        LambdaClient.builder()
            .httpClientBuilder(Apache5HttpClient.builder())
            .credentialsProvider(DefaultCredentialsProvider.builder().build());
    region.map(Region::of).ifPresent(builder::region);
    endpoint.ifPresent(builder::endpointOverride);
    try {
      return new LambdaAdmin(builder.build(), function);
    } catch (SdkException e) {
      throw new LivegateException(
          "cannot call the admin Lambda " + function + ": " + e.getMessage(), e);
    }
  }

  /** Runs {@code command} in the Lambda and answers what it did. */
  public AdminResult run(AdminCommand command) {
    return AdminCall.result(invoke(AdminCall.request(command)));
  }

  /** The console's page that {@code page} asks for, rendered by the Lambda from the metadb. */
  public Console.Response page(AdminCall.PageRequest page) {
    return AdminCall.page(invoke(AdminCall.request(page)));
  }

  private JsonNode invoke(ObjectNode request) {
    InvokeResponse response;
    try {
      response =
          lambda.invoke(
              invoke ->
                  invoke
                      .functionName(function)
                      .invocationType(InvocationType.REQUEST_RESPONSE)
                      .payload(SdkBytes.fromUtf8String(request.toString())));
    } catch (SdkException e) {
      throw new LivegateException(
          "cannot invoke the admin Lambda " + function + ": " + e.getMessage(), e);
    }
    JsonNode answer = answer(response.payload());
    if (response.functionError() != null) {
      throw new LivegateException(
          "the admin Lambda "
              + function
              + " failed: "
              + answer.path("errorMessage").asText(answer.toString()));
    }
    return answer;
  }

  private JsonNode answer(SdkBytes payload) {
    String text = payload == null ? "" : payload.asUtf8String();
    try {
      JsonNode answer = FlowJson.MAPPER.readTree(text);
      if (answer == null || !answer.isObject()) {
        throw new LivegateException(
            "the admin Lambda " + function + " answered no JSON object: " + text);
      }
      return answer;
    } catch (IOException e) {
      throw new LivegateException("the admin Lambda " + function + " answered no JSON: " + text, e);
    }
  }

  @Override
  public void close() {
    lambda.close();
  }
}
