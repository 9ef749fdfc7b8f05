package io.livegate.lambdas.approval;

import static io.livegate.sql.testing.SyntheticDeployments.command;
import static io.livegate.sql.testing.SyntheticDeployments.unit;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.livegate.core.LivegateException;
import io.livegate.core.deploy.Execution;
import io.livegate.core.deploy.PlanSummary;
import io.livegate.core.vote.RequestVotes;
import io.livegate.core.vote.VoteLinks;
import io.livegate.lambdas.Handlers;
import io.livegate.sql.testing.RecordingFlowCallback;
import io.livegate.sql.testing.RecordingMailer;
import io.livegate.sql.testing.SyntheticDeployments;
import io.livegate.sql.testing.TestEngine;
import io.livegate.statemachine.ApprovalRequest;
import io.livegate.statemachine.PlanResult;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The approval-request Lambda on SNS events whose messages are RequestApproval's, with the real use
 * case on an embedded metadb, a recording mailer in place of SES and a recording callback in place
 * of Step Functions.
 */
class ApprovalRequestHandlerTest {
  private static final List<String> VOTERS =
      List.of("alice@example.com", "bob@example.com", "carol@example.com");
  private static final String LOG_URL = "https://console.aws.amazon.com/cloudwatch/logs/dns";
  private static final PlanSummary SUMMARY = new PlanSummary(1, 0, 0, List.of());

  private final TestEngine engine = TestEngine.fresh();
  private final RecordingMailer mailer = new RecordingMailer();
  private final RecordingFlowCallback callback = new RecordingFlowCallback();
  private final ApprovalRequestHandler handler =
      new ApprovalRequestHandler(
          () ->
              new RequestVotes(
                  engine.executions,
                  engine.deployments,
                  new VoteLinks(
                      "a vote-link key of thirty-two bytes or more"
                          .getBytes(StandardCharsets.UTF_8)),
                  mailer,
                  callback,
                  new RequestVotes.Settings(
                      "https://vote.example.on.aws", Duration.ofDays(3), false),
                  Clock.systemUTC()));
  private final Execution dns = planned();

  private Execution planned() {
    long id =
        engine
            .create
            .create(
                command(
                    1,
                    SyntheticDeployments.accounts(1, VOTERS, 2, 1),
                    List.of(unit("account-0/dns", "account-0", 0, List.of()))))
            .deployment()
            .id();
    Execution execution = engine.release.release(id).get(0);
    engine.executions.recordPlan(execution.id(), "plans/dns.tfplan", "ab".repeat(32), SUMMARY);
    return execution;
  }

  /** RequestApproval's message, as the state machine publishes it. */
  private String message(String taskToken) {
    return new ApprovalRequest(
            taskToken,
            dns.id(),
            dns.name(),
            new PlanResult("plans/dns.tfplan", "ab".repeat(32), SUMMARY, LOG_URL))
        .toJson();
  }

  /** An SNS event as Lambda receives it from a topic subscription. */
  private static ObjectNode snsEvent(String... messages) {
    ObjectNode event = Handlers.JSON.createObjectNode();
    ArrayNode records = event.putArray("Records");
    for (String message : messages) {
      ObjectNode record = records.addObject();
      record.put("EventSource", "aws:sns");
      record.put("EventVersion", "1.0");
      record.put(
          "EventSubscriptionArn",
          "arn:aws:sns:eu-west-1:123456789012:livegate-approval:2bcfbf39-05c3-41de-beaa");
      ObjectNode sns = record.putObject("Sns");
      sns.put("Type", "Notification");
      sns.put("MessageId", "95df01b4-ee98-5cb9-9903-4c221d41eb5e");
      sns.put("TopicArn", "arn:aws:sns:eu-west-1:123456789012:livegate-approval");
      sns.putNull("Subject");
      sns.put("Message", message);
      sns.put("Timestamp", "2026-11-22T10:00:00.000Z");
      sns.put("SignatureVersion", "1");
      sns.put("Signature", "EXAMPLE");
      sns.putObject("MessageAttributes");
    }
    return event;
  }

  private static List<String> results(JsonNode answer) {
    return Handlers.JSON.convertValue(
        answer.get("results"),
        Handlers.JSON.getTypeFactory().constructCollectionType(List.class, String.class));
  }

  @Test
  void anApprovalRequestKeepsTheTokenAndMailsTheVoters() throws IOException {
    ByteArrayOutputStream output = new ByteArrayOutputStream();

    handler.handleRequest(
        new ByteArrayInputStream(
            snsEvent(message("token-1")).toString().getBytes(StandardCharsets.UTF_8)),
        output,
        null);

    assertThat(results(Handlers.JSON.readTree(output.toByteArray())))
        .containsExactly(dns.name() + ": mailed 3 of 3 voters");
    assertThat(engine.executions.approvalToken(dns.id())).contains("token-1");
    assertThat(mailer.sent()).containsOnlyKeys(VOTERS);
    assertThat(mailer.sent().get(VOTERS.get(0)).text()).contains(LOG_URL);
    assertThat(callback.answers()).isEmpty();
  }

  @Test
  void aRecordThatIsNotAnApprovalRequestIsSkippedAndTheOthersStillRun() {
    JsonNode answer =
        handler.handle(snsEvent("garbage, not JSON", "{\"executionId\": 1}", message("token-2")));

    List<String> results = results(answer);
    assertThat(results).hasSize(3);
    assertThat(results.get(0))
        .startsWith("skipped a record: an approval request is not JSON: Unrecognized token");
    assertThat(results.get(1))
        .isEqualTo("skipped a record: an approval request needs the text field 'taskToken'");
    assertThat(results.get(2)).isEqualTo(dns.name() + ": mailed 3 of 3 voters");
    assertThat(engine.executions.approvalToken(dns.id())).contains("token-2");
    assertThat(mailer.sent()).containsOnlyKeys(VOTERS);
  }

  @Test
  void anEventWithoutRecordsIsRefused() {
    assertThatThrownBy(() -> handler.handle(Handlers.JSON.createObjectNode()))
        .isInstanceOf(LivegateException.class)
        .hasMessage("the SNS event has no Records list");
    assertThatThrownBy(
            () -> handler.handle(Handlers.JSON.createObjectNode().put("Records", "none")))
        .isInstanceOf(LivegateException.class)
        .hasMessage("the SNS event has no Records list");
    assertThat(mailer.sent()).isEmpty();
  }
}
