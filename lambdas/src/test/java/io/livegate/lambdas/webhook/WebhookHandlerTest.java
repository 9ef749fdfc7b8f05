package io.livegate.lambdas.webhook;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.livegate.core.webhook.WebhookSignature;
import io.livegate.lambdas.LoggingContext;
import io.livegate.sql.testing.Webhooks;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import org.junit.jupiter.api.Test;

/**
 * The Function URL wrapper around core's receiver (whose behaviour the sql module's receiver and
 * fuzz tests cover): the event's shape in, the HTTP answer out, the raw body bytes signed.
 */
class WebhookHandlerTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  private final Webhooks hooks = Webhooks.fresh();
  private final WebhookHandler handler = new WebhookHandler(() -> hooks.receiver, () -> 0);

  private static ObjectNode event(String method, String body, boolean base64, String signature) {
    ObjectNode event = JSON.createObjectNode();
    event.put("version", "2.0");
    event.putObject("requestContext").putObject("http").put("method", method).put("path", "/");
    ObjectNode headers = event.putObject("headers");
    headers.put("content-type", "application/json");
    headers.put("x-github-event", "pull_request");
    headers.put("x-github-delivery", "72d3162e-cc78-11e3-81ab-4c9367dc0958");
    if (signature != null) {
      headers.put("x-hub-signature-256", signature);
    }
    event.put(
        "body",
        base64 ? Base64.getEncoder().encodeToString(body.getBytes(StandardCharsets.UTF_8)) : body);
    event.put("isBase64Encoded", base64);
    return event;
  }

  private JsonNode invoke(JsonNode event) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    handler.handleRequest(
        new ByteArrayInputStream(event.toString().getBytes(StandardCharsets.UTF_8)), out, null);
    return JSON.readTree(out.toByteArray());
  }

  private static String sign(String body) {
    return WebhookSignature.sign(
        WebhookSignature.secret(Webhooks.SECRET), body.getBytes(StandardCharsets.UTF_8));
  }

  @Test
  void aSignedPullRequestThroughTheFunctionUrlIsPlanned() throws IOException {
    String body = Webhooks.payload("pull_request.opened").toString();
    JsonNode response = invoke(event("POST", body, false, sign(body)));

    assertThat(response.get("statusCode").asInt()).isEqualTo(202);
    assertThat(response.get("body").asText())
        .isEqualTo("planning pull request #2 at ec26c3e57ca3\n");
    assertThat(response.at("/headers/content-type").asText()).startsWith("text/plain");
    assertThat(hooks.plansRequested).hasSize(1);
  }

  @Test
  void aBase64BodyIsCheckedOverItsDecodedBytes() throws IOException {
    String body = Webhooks.payload("pull_request.synchronize").toString();
    assertThat(invoke(event("POST", body, true, sign(body))).get("statusCode").asInt())
        .isEqualTo(202);
  }

  @Test
  void aWrongSignatureIs401AndAGetIs405() throws IOException {
    String body = Webhooks.payload("pull_request.opened").toString();
    assertThat(invoke(event("POST", body, false, sign(body + " "))).get("statusCode").asInt())
        .isEqualTo(401);
    assertThat(invoke(event("POST", body, false, null)).get("statusCode").asInt()).isEqualTo(401);
    assertThat(invoke(event("GET", body, false, sign(body))).get("statusCode").asInt())
        .isEqualTo(405);
    assertThat(hooks.plansRequested).isEmpty();
  }

  @Test
  void aMalformedEventIs400NotAnError() throws IOException {
    ObjectNode notText = event("POST", "", false, sign(""));
    notText.putObject("body");
    assertThat(invoke(notText).get("statusCode").asInt()).isEqualTo(400);
    ObjectNode badBase64 = event("POST", "", true, sign(""));
    badBase64.put("body", "%%%");
    assertThat(invoke(badBase64).get("body").asText())
        .isEqualTo("refused: the body is not valid base64\n");
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    handler.handleRequest(
        new ByteArrayInputStream("[]".getBytes(StandardCharsets.UTF_8)), out, null);
    assertThat(JSON.readTree(out.toByteArray()).get("statusCode").asInt()).isEqualTo(400);
  }

  /**
   * A pull request's base branch is the payload's text: a newline in it would start a second line
   * of the function's log, one that looks like livegate's, and an escape sequence would reach
   * whoever tails the log in a terminal. The answer is logged as one escaped line.
   */
  @Test
  void aBranchNameWithANewlineAndEscapesIsLoggedAsOneEscapedLine() throws IOException {
    ObjectNode payload = (ObjectNode) Webhooks.payload("pull_request.opened");
    String forged = "livegate: FORGED deployment 1: succeeded";
    ((ObjectNode) payload.path("pull_request").path("base"))
        .put("ref", "release\n" + forged + "\u001b[2J\r");
    String body = payload.toString();
    LoggingContext context = new LoggingContext();

    handler.handleRequest(
        new ByteArrayInputStream(
            event("POST", body, false, sign(body)).toString().getBytes(StandardCharsets.UTF_8)),
        new ByteArrayOutputStream(),
        context);

    System.out.println(context.logged);
    assertThat(context.logged).hasSize(1);
    assertThat(context.logged.get(0))
        .startsWith("202 ignored: ")
        .contains("merges into release\\n" + forged + "\\e[2J\\r")
        .doesNotContain("\u001b", "\r")
        .endsWith("\n")
        .containsOnlyOnce("\n");
  }
}
