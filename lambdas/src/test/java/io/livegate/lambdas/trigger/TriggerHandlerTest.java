package io.livegate.lambdas.trigger;

import static io.livegate.sql.testing.SyntheticDeployments.command;
import static io.livegate.sql.testing.SyntheticDeployments.unit;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.livegate.aws.Watchdog;
import io.livegate.core.LivegateException;
import io.livegate.core.account.Accounts;
import io.livegate.core.deploy.AdvanceDeployment;
import io.livegate.core.deploy.CreateDeploymentCommand;
import io.livegate.core.deploy.Execution;
import io.livegate.core.deploy.ExecutionStatus;
import io.livegate.core.deploy.StatusTexts;
import io.livegate.core.pr.LockScope;
import io.livegate.core.pr.PlanPullRequestResult;
import io.livegate.core.pr.PullRequestHead;
import io.livegate.core.testing.RecordingStatuses;
import io.livegate.core.vote.Vote;
import io.livegate.lambdas.Handlers;
import io.livegate.sql.testing.InMemoryFlowLauncher;
import io.livegate.sql.testing.InMemoryMergeLock;
import io.livegate.sql.testing.RecordingFlowCallback;
import io.livegate.sql.testing.RecordingScanLauncher;
import io.livegate.sql.testing.SyntheticDeployments;
import io.livegate.sql.testing.TestEngine;
import io.livegate.statemachine.RuntimeContract;
import io.livegate.statemachine.TriggerEvent;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The trigger's event parsing, on the real use case over an embedded metadb. Step Functions and SSM
 * are the in-memory ports of sql's tests: what is under test here is what each event makes of the
 * deployment, not the AWS calls.
 */
class TriggerHandlerTest {
  private static final String DNS = "account-0/dns";
  private static final String APP = "account-0/app";
  private static final String STATE_MACHINE =
      "arn:aws:states:eu-west-1:123456789012:stateMachine:livegate-deploy-flow";
  private static final Accounts ACCOUNTS = SyntheticDeployments.accounts(1);
  private static final CreateDeploymentCommand DEPLOYMENT =
      command(
          1,
          ACCOUNTS,
          List.of(unit(DNS, "account-0", 0, List.of()), unit(APP, "account-0", 1, List.of(DNS))));

  private final TestEngine engine = TestEngine.fresh();
  private final InMemoryFlowLauncher flows = new InMemoryFlowLauncher();
  private final AdvanceDeployment advance =
      engine.advance(flows, new RecordingScanLauncher(), new InMemoryMergeLock());
  private final RecordingStatuses github = new RecordingStatuses();
  private final TriggerHandler.Parts parts =
      new TriggerHandler.Parts(
          advance,
          engine.gate(github, LockScope.REPO),
          engine.finalStatuses(github),
          new RecordingFlowCallback(),
          github);
  private final TriggerHandler handler =
      new TriggerHandler(() -> parts, TriggerHandlerTest::noWatchdog);

  /** The watchdog of handlers that get no schedule event; its checks are WatchdogTest's (tests). */
  static Watchdog noWatchdog() {
    throw new AssertionError("only a schedule event wires the watchdog");
  }

  private final long deploymentId = engine.create.create(DEPLOYMENT).deployment().id();

  private Execution execution(String unit) {
    return engine.executions.list(deploymentId).stream()
        .filter(e -> e.unit().equals(unit))
        .findFirst()
        .orElseThrow();
  }

  private Map<String, ExecutionStatus> statuses() {
    return engine.executions.list(deploymentId).stream()
        .collect(Collectors.toMap(Execution::unit, Execution::status));
  }

  /** The event EventBridge delivers when a deploy-flow execution changes status. */
  private static ObjectNode statusChange(String name, String status, String output) {
    ObjectNode event = Handlers.JSON.createObjectNode();
    event.put("version", "0");
    event.put("id", "315c1398-40ff-a850-213b-158f73e60175");
    event.put("detail-type", RuntimeContract.Events.STATUS_CHANGE);
    event.put("source", "aws.states");
    event.put("account", "123456789012");
    event.put("time", "2026-11-22T10:00:00Z");
    event.put("region", "eu-west-1");
    String executionArn = STATE_MACHINE.replace(":stateMachine:", ":execution:") + ":" + name;
    event.putArray("resources").add(executionArn);
    ObjectNode detail = event.putObject("detail");
    detail.put("executionArn", executionArn);
    detail.put("stateMachineArn", STATE_MACHINE);
    detail.put("name", name);
    detail.put("status", status);
    detail.put("startDate", 1_795_341_600_000L);
    if (status.equals("RUNNING")) {
      detail.putNull("stopDate");
    } else {
      detail.put("stopDate", 1_795_341_700_000L);
    }
    detail.put("input", "{\"executionId\":1}");
    if (output == null) {
      detail.putNull("output");
    } else {
      detail.put("output", output);
    }
    detail.putObject("inputDetails").put("included", true);
    detail.putObject("outputDetails").put("included", true);
    if (status.equals("FAILED")) {
      detail.put("error", "States.TaskFailed");
      detail.put("cause", "terra-run exited 1");
    }
    return event;
  }

  private static String output(long executionId, String status) {
    return "{\"executionId\":" + executionId + ",\"status\":\"" + status + "\"}";
  }

  /** Runs the handler as the Lambda runtime does, on the event's bytes. */
  private String invoke(String event) throws IOException {
    ByteArrayOutputStream answer = new ByteArrayOutputStream();
    handler.handleRequest(
        new ByteArrayInputStream(event.getBytes(StandardCharsets.UTF_8)), answer, null);
    JsonNode node = Handlers.JSON.readTree(answer.toByteArray());
    return node.get("message").asText();
  }

  private void created() throws IOException {
    invoke("{\"deploymentCreated\": " + deploymentId + "}");
  }

  @Test
  void deploymentCreatedStartsTheReadyFlows() throws IOException {
    String message = invoke("{\"deploymentCreated\": " + deploymentId + "}");

    assertThat(message).isEqualTo("deployment " + deploymentId + ": started 1 flows");
    assertThat(flows.flows()).containsExactly(execution(DNS).name());
  }

  @Test
  void aSucceededFlowRecordsTheOutcomeItsOutputCarriesAndStartsWhatBecameReady()
      throws IOException {
    created();
    Execution dns = execution(DNS);

    String message =
        invoke(statusChange(dns.name(), "SUCCEEDED", output(dns.id(), "succeeded")).toString());

    assertThat(message)
        .isEqualTo(
            dns.name()
                + " SUCCEEDED: recorded "
                + dns.name()
                + " as succeeded; started 1, stopped 0");
    assertThat(statuses())
        .containsExactlyInAnyOrderEntriesOf(
            Map.of(DNS, ExecutionStatus.SUCCEEDED, APP, ExecutionStatus.RUNNING));
    assertThat(flows.flows()).containsExactly(dns.name(), execution(APP).name());
  }

  @Test
  void aSucceededFlowWhoseUnitWasRejectedIsRecordedAsRejected() throws IOException {
    created();
    Execution dns = execution(DNS);

    String message =
        invoke(statusChange(dns.name(), "SUCCEEDED", output(dns.id(), "rejected")).toString());

    assertThat(message).contains("recorded " + dns.name() + " as rejected; aborted 1");
    assertThat(statuses())
        .containsExactlyInAnyOrderEntriesOf(
            Map.of(DNS, ExecutionStatus.REJECTED, APP, ExecutionStatus.ABORTED));
  }

  @ParameterizedTest
  @ValueSource(strings = {"FAILED", "TIMED_OUT", "ABORTED"})
  void aFlowThatDidNotReachAnEndIsAFailure(String status) throws IOException {
    created();
    Execution dns = execution(DNS);

    String message = invoke(statusChange(dns.name(), status, null).toString());

    assertThat(message).startsWith(dns.name() + " " + status + ": recorded " + dns.name());
    assertThat(statuses())
        .containsExactlyInAnyOrderEntriesOf(
            Map.of(DNS, ExecutionStatus.FAILED, APP, ExecutionStatus.ABORTED));
  }

  @Test
  void aRunningFlowIsIgnored() throws IOException {
    created();
    Map<String, ExecutionStatus> before = statuses();
    String name = execution(DNS).name();

    String message = invoke(statusChange(name, "RUNNING", null).toString());

    assertThat(message).isEqualTo("ignored: " + name + " is RUNNING");
    assertThat(statuses()).isEqualTo(before);
  }

  @Test
  void aRepeatedStatusChangeChangesNothing() throws IOException {
    created();
    Execution dns = execution(DNS);
    String event = statusChange(dns.name(), "SUCCEEDED", output(dns.id(), "succeeded")).toString();
    invoke(event);
    List<Execution> before = engine.executions.list(deploymentId);
    List<String> created = flows.flows();

    String message = invoke(event);

    assertThat(message).contains("is already succeeded", "changes nothing");
    assertThat(engine.executions.list(deploymentId)).isEqualTo(before);
    assertThat(flows.flows()).isEqualTo(created);
  }

  @Test
  void aStatusChangeOfAFlowLivegateDoesNotKnowIsIgnored() throws IOException {
    created();
    Map<String, ExecutionStatus> before = statuses();

    String message = invoke(statusChange("someone-elses-flow", "FAILED", null).toString());

    assertThat(message).contains("no execution is named someone-elses-flow; ignored");
    assertThat(statuses()).isEqualTo(before);
  }

  @Test
  void otherEventsAreIgnoredWithoutWiringAnything() throws IOException {
    TriggerHandler unwired =
        new TriggerHandler(
            () -> {
              throw new AssertionError("an ignored event must not wire the use case");
            },
            TriggerHandlerTest::noWatchdog);
    ObjectNode other = statusChange("x", "SUCCEEDED", null);
    other.put("detail-type", "EC2 Instance State-change Notification");

    assertThat(unwired.handle(other))
        .isEqualTo("ignored: not a deployment, a Step Functions status change or a schedule");
    assertThat(unwired.handle(Handlers.JSON.createObjectNode()))
        .isEqualTo("ignored: not a deployment, a Step Functions status change or a schedule");
  }

  @Test
  void anEventThatIsNotAJsonObjectIsRefusedWithAClearMessage() {
    assertThatThrownBy(() -> invoke("not json at all"))
        .isInstanceOf(LivegateException.class)
        .hasMessageStartingWith("the trigger event is not JSON");
    assertThatThrownBy(() -> invoke("[1, 2]"))
        .isInstanceOf(LivegateException.class)
        .hasMessage("the trigger event is not a JSON object");
    assertThatThrownBy(() -> invoke(""))
        .isInstanceOf(LivegateException.class)
        .hasMessage("the trigger event is not a JSON object");
  }

  @Test
  void aDeploymentCreatedEventWithoutAWholeNumberIdIsRefused() {
    for (String id : List.of("\"12\"", "1.5", "null", "{}")) {
      assertThatThrownBy(() -> invoke("{\"deploymentCreated\": " + id + "}"))
          .isInstanceOf(LivegateException.class)
          .hasMessage("deploymentCreated must be a deployment id, not " + id.replace(" ", ""));
    }
    assertThat(flows.flows()).isEmpty();
  }

  @Test
  void aStatusChangeWithoutANameOrStatusIsRefused() throws IOException {
    created();
    Map<String, ExecutionStatus> before = statuses();
    String name = execution(DNS).name();
    ObjectNode noName = statusChange(name, "FAILED", null);
    ((ObjectNode) noName.get("detail")).remove("name");
    ObjectNode noStatus = statusChange(name, "FAILED", null);
    ((ObjectNode) noStatus.get("detail")).remove("status");
    ObjectNode nameNotText = statusChange(name, "FAILED", null);
    ((ObjectNode) nameNotText.get("detail")).putObject("name");
    ObjectNode noDetail = statusChange(name, "FAILED", null);
    noDetail.remove("detail");

    for (ObjectNode event : List.of(noName, noStatus, nameNotText, noDetail)) {
      assertThatThrownBy(() -> handler.handle(event))
          .isInstanceOf(LivegateException.class)
          .hasMessageStartingWith("the status change names no execution or status");
    }
    assertThat(statuses()).isEqualTo(before);
  }

  @Test
  void aSucceededFlowWhoseOutputIsNotAnOutcomeIsRefusedAndChangesNothing() throws IOException {
    created();
    Map<String, ExecutionStatus> before = statuses();
    Execution dns = execution(DNS);

    assertThatThrownBy(
            () -> handler.handle(statusChange(dns.name(), "SUCCEEDED", output(dns.id(), "maybe"))))
        .isInstanceOf(LivegateException.class)
        .hasMessage("the deploy flow's output has an unknown status 'maybe'");
    assertThatThrownBy(() -> handler.handle(statusChange(dns.name(), "SUCCEEDED", "{oops")))
        .isInstanceOf(LivegateException.class)
        .hasMessageStartingWith("the deploy flow's output is not JSON");
    assertThatThrownBy(() -> handler.handle(statusChange(dns.name(), "SUCCEEDED", null)))
        .isInstanceOf(LivegateException.class)
        .hasMessageStartingWith("the deploy flow's output");
    assertThatThrownBy(
            () ->
                handler.handle(
                    statusChange(dns.name(), "SUCCEEDED", "{\"executionId\":1,\"status\":7}")))
        .isInstanceOf(LivegateException.class)
        .hasMessage("the deploy flow's output needs the text field 'status'");
    assertThat(statuses()).isEqualTo(before);
  }

  @Test
  void aPlannedHeadNamesItsUnitsForTheMergeGate() throws IOException {
    PullRequestHead head =
        new PullRequestHead("acme/live", 4, "main", "a".repeat(40), "b".repeat(40), false);
    parts.gate().headChanged(head);

    String message =
        handler.handle(
            Handlers.JSON.readTree(
                TriggerEvent.prPlanned(
                    head,
                    new PlanPullRequestResult(
                        PlanPullRequestResult.Outcome.STARTED, List.of(DNS), "1 unit"))));

    assertThat(message).isEqualTo("pull request #4 at " + "b".repeat(40) + ": STARTED");
    assertThat(engine.metadb.pullRequests().open("acme/live"))
        .singleElement()
        .satisfies(open -> assertThat(open.units()).contains(Set.of(DNS)));
  }

  @Test
  void aRejectedUnitGetsItsFinalStatusFromTheTrigger() throws IOException {
    created();
    Execution dns = execution(DNS);
    engine.castVote.cast(dns.id(), "alice", Vote.Choice.REJECT);

    invoke(statusChange(dns.name(), "SUCCEEDED", output(dns.id(), "rejected")).toString());

    assertThat(github.of(StatusTexts.deployContext(DNS, false)))
        .extracting(s -> s.state() + " " + s.description())
        .containsExactly("FAILURE rejected by the vote");
    assertThat(github.of(StatusTexts.DEPLOY))
        .extracting(s -> s.state() + " " + s.description())
        .containsExactly("FAILURE deployment " + deploymentId + " was rejected");
  }
}
