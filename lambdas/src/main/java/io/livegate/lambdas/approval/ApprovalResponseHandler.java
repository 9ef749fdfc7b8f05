package io.livegate.lambdas.approval;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.RequestStreamHandler;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.livegate.core.Html;
import io.livegate.core.deploy.ExecutionStore;
import io.livegate.core.flow.FlowCallback;
import io.livegate.core.vote.VoteDesk;
import io.livegate.lambdas.Handlers;
import io.livegate.lambdas.SnapStartPriming;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The approval-response Lambda behind a Function URL: the same pages as the local vote server. A
 * GET on {@code /vote} shows the confirm page and records nothing; the POST from it records the
 * vote, and the vote that decides answers RequestApproval's task token, once.
 */
public final class ApprovalResponseHandler implements RequestStreamHandler {
  static final int MAX_BODY = 16 * 1024;

  /** What the handler needs, built on first use. */
  public record Parts(VoteDesk desk, ExecutionStore executions, FlowCallback callback) {}

  private final Supplier<Parts> parts;

  public ApprovalResponseHandler() {
    this(ApprovalWiring.fromEnvironment(System.getenv()));
  }

  private ApprovalResponseHandler(ApprovalWiring wiring) {
    this(wiring::responseParts);
    SnapStartPriming.register(wiring::prime);
  }

  public ApprovalResponseHandler(Supplier<Parts> parts) {
    this.parts = parts;
  }

  @Override
  public void handleRequest(InputStream input, OutputStream output, Context context)
      throws IOException {
    JsonNode request;
    try {
      request = Handlers.read(input, "the Function URL request");
    } catch (RuntimeException e) {
      Handlers.write(
          output, response(VoteDesk.page(400, "Bad request", "<p>That request is not valid.</p>")));
      return;
    }
    Handlers.write(output, handle(request));
  }

  /** Answers one Function URL request (payload format 2.0) with a response object. */
  public ObjectNode handle(JsonNode request) {
    try {
      return response(page(request));
    } catch (RuntimeException e) {
      return response(
          VoteDesk.page(
              500,
              "Something went wrong",
              "<p>" + Html.escape(String.valueOf(e.getMessage())) + " No vote was recorded.</p>"));
    }
  }

  private VoteDesk.Page page(JsonNode request) {
    String path = request.path("rawPath").asText("/");
    String method = request.path("requestContext").path("http").path("method").asText("GET");
    if (!path.equals(VoteDesk.PATH)) {
      return VoteDesk.page(404, "Not found", "<p>There is nothing here.</p>");
    }
    if (method.equals("GET")) {
      return parts
          .get()
          .desk()
          .confirm(
              VoteDesk.form(request.path("rawQueryString").asText(""))
                  .get(VoteDesk.TOKEN_PARAMETER));
    }
    if (!method.equals("POST")) {
      return VoteDesk.page(405, "Not allowed", "<p>Use the link from your email.</p>");
    }
    String body = request.path("body").asText("");
    if (request.path("isBase64Encoded").asBoolean(false)) {
      try {
        body = new String(Base64.getDecoder().decode(body), StandardCharsets.UTF_8);
      } catch (IllegalArgumentException e) {
        return VoteDesk.page(400, "Bad request", "<p>That request is not valid.</p>");
      }
    }
    if (body.length() > MAX_BODY) {
      return VoteDesk.page(413, "Too large", "<p>That request is too large.</p>");
    }
    Parts wired = parts.get();
    Map<String, String> form = VoteDesk.form(body);
    VoteDesk.Page page =
        wired
            .desk()
            .record(form.get(VoteDesk.TOKEN_PARAMETER), form.get(VoteDesk.REASON_PARAMETER));
    Optional<VoteDesk.Decided> decided = page.decided();
    if (decided.isPresent()) {
      long executionId = decided.get().executionId();
      wired
          .executions()
          .approvalToken(executionId)
          .ifPresent(
              token -> wired.callback().decide(token, decided.get().decision().flowDecision()));
    }
    return page;
  }

  private static ObjectNode response(VoteDesk.Page page) {
    ObjectNode response = Handlers.JSON.createObjectNode();
    response.put("statusCode", page.status());
    ObjectNode headers = response.putObject("headers");
    headers.put("content-type", "text/html; charset=utf-8");
    headers.put("cache-control", "no-store");
    headers.put(
        "content-security-policy",
        "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'");
    response.put("body", page.html());
    return response;
  }
}
