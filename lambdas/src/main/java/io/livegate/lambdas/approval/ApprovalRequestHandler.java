package io.livegate.lambdas.approval;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.RequestStreamHandler;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.livegate.core.LivegateException;
import io.livegate.core.vote.RequestVotes;
import io.livegate.lambdas.Handlers;
import io.livegate.lambdas.SnapStartPriming;
import io.livegate.statemachine.ApprovalRequest;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.function.Supplier;

/**
 * The approval-request Lambda, subscribed to the approval topic. Each SNS record is one
 * RequestApproval: it keeps the task token and mails each voter their own signed links. A record
 * that is not an approval request is reported and skipped; the others still run.
 */
public final class ApprovalRequestHandler implements RequestStreamHandler {
  private final Supplier<RequestVotes> requestVotes;

  public ApprovalRequestHandler() {
    this(ApprovalWiring.fromEnvironment(System.getenv()));
  }

  private ApprovalRequestHandler(ApprovalWiring wiring) {
    this(wiring::requestVotes);
    SnapStartPriming.register(wiring::prime);
  }

  public ApprovalRequestHandler(Supplier<RequestVotes> requestVotes) {
    this.requestVotes = requestVotes;
  }

  @Override
  public void handleRequest(InputStream input, OutputStream output, Context context)
      throws IOException {
    JsonNode answer = handle(Handlers.read(input, "the SNS event"));
    Handlers.write(output, answer);
    Handlers.log(context, answer);
  }

  /** Handles every record of the event; the answer has one line per record. */
  public JsonNode handle(JsonNode event) {
    ObjectNode answer = Handlers.JSON.createObjectNode();
    ArrayNode results = answer.putArray("results");
    JsonNode records = event.path("Records");
    if (!records.isArray()) {
      throw new LivegateException("the SNS event has no Records list");
    }
    for (JsonNode record : records) {
      try {
        ApprovalRequest request =
            ApprovalRequest.fromJson(record.path("Sns").path("Message").asText());
        results.add(
            requestVotes
                .get()
                .request(request.executionId(), request.taskToken(), request.plan().logUrl())
                .message());
      } catch (LivegateException e) {
        results.add("skipped a record: " + e.getMessage());
      }
    }
    return answer;
  }
}
