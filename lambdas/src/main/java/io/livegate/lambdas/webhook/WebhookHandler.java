package io.livegate.lambdas.webhook;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.RequestStreamHandler;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.livegate.core.LivegateException;
import io.livegate.core.webhook.WebhookReceiver;
import io.livegate.core.webhook.WebhookRequest;
import io.livegate.core.webhook.WebhookResponse;
import io.livegate.lambdas.Handlers;
import io.livegate.lambdas.SnapStartPriming;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.HashMap;
import java.util.Map;
import java.util.function.IntSupplier;
import java.util.function.Supplier;

/**
 * The webhook-receiver Lambda behind a Function URL (payload format 2.0). It hands the headers and
 * the raw body bytes to core's {@link WebhookReceiver}, which {@code livegate serve} runs too, and
 * answers with its status and one line of text. Only {@code POST} is accepted. GitHub must send
 * {@code application/json}, so the body arrives as text (or base64) whose bytes are the signed
 * ones.
 */
public final class WebhookHandler implements RequestStreamHandler {
  private final Supplier<WebhookReceiver> receiver;
  private final IntSupplier handOnStatuses;

  /** The Lambda runtime's constructor: wires from the environment. */
  public WebhookHandler() {
    this(WebhookWiring.fromEnvironment(System.getenv()));
  }

  private WebhookHandler(WebhookWiring wiring) {
    this(wiring::receiver, wiring::handOnStatuses);
    SnapStartPriming.register(wiring::prime);
  }

  /**
   * @param handOnStatuses after a delivery is handled: hands the commit statuses its receiver held
   *     back to whoever posts them, and says how many
   */
  public WebhookHandler(Supplier<WebhookReceiver> receiver, IntSupplier handOnStatuses) {
    this.receiver = receiver;
    this.handOnStatuses = handOnStatuses;
  }

  @Override
  public void handleRequest(InputStream input, OutputStream output, Context context)
      throws IOException {
    WebhookResponse answer;
    try {
      answer = handle(Handlers.read(input, "the Function URL event"));
    } catch (LivegateException e) {
      answer = new WebhookResponse(400, "refused: " + e.getMessage());
    }
    ObjectNode response = Handlers.JSON.createObjectNode();
    response.put("statusCode", answer.status());
    response.putObject("headers").put("content-type", "text/plain; charset=utf-8");
    response.put("body", answer.body() + "\n");
    Handlers.write(output, response);
    Handlers.log(context, answer.status() + " " + answer.body());
  }

  /** Answers one Function URL event. */
  public WebhookResponse handle(JsonNode event) {
    String method = event.path("requestContext").path("http").path("method").asText("");
    if (!method.equals("POST")) {
      return new WebhookResponse(405, "refused: the webhook takes POST, not " + method);
    }
    Map<String, String> headers = new HashMap<>();
    event
        .path("headers")
        .fields()
        .forEachRemaining(
            header -> {
              if (header.getValue().isTextual()) {
                headers.put(header.getKey(), header.getValue().asText());
              }
            });
    JsonNode body = event.path("body");
    if (!body.isMissingNode() && !body.isNull() && !body.isTextual()) {
      return new WebhookResponse(400, "refused: the event's body is not text");
    }
    byte[] bytes;
    if (event.path("isBase64Encoded").asBoolean(false)) {
      try {
        bytes = Base64.getDecoder().decode(body.asText(""));
      } catch (IllegalArgumentException e) {
        return new WebhookResponse(400, "refused: the body is not valid base64");
      }
    } else {
      bytes = body.asText("").getBytes(StandardCharsets.UTF_8);
    }
    WebhookResponse response = receiver.get().receive(new WebhookRequest(headers, bytes));
    try {
      handOnStatuses.getAsInt();
    } catch (LivegateException e) {
      // What the delivery changed is stored; only its statuses did not reach the trigger. A 503
      // shows the delivery as failed in GitHub's Recent Deliveries, with the reason.
      return new WebhookResponse(
          503, response.body() + "; but its commit statuses were not handed on: " + e.getMessage());
    }
    return response;
  }
}
