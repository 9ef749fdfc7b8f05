package io.livegate.statemachine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.livegate.core.LivegateException;
import io.livegate.core.deploy.ExecutionStatus;
import io.livegate.core.flow.FlowDecision;
import io.livegate.core.flow.FlowState;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * Holds the ASL to the shared names: its states and transitions are {@link FlowState}'s table, and
 * every field, variable and value it uses is one of the constants the Lambdas and tasks use.
 */
class DeployFlowTest {
  private static final ObjectMapper MAPPER = new ObjectMapper();

  private static JsonNode definition() throws Exception {
    return MAPPER.readTree(DeployFlow.template());
  }

  @Test
  void theStatesAndTransitionsAreTheFlowTable() throws Exception {
    JsonNode states = definition().get("States");
    Map<String, FlowState> byName = new HashMap<>();
    for (FlowState state : FlowState.values()) {
      byName.put(state.stateName(), state);
    }
    Set<String> names = new TreeSet<>();
    states.fieldNames().forEachRemaining(names::add);
    assertThat(names).isEqualTo(new TreeSet<>(byName.keySet()));
    assertThat(definition().get("StartAt").asText()).isEqualTo(FlowState.PLAN.stateName());

    for (FlowState state : FlowState.values()) {
      JsonNode asl = states.get(state.stateName());
      Set<FlowState> successors = new HashSet<>();
      successorsOf(asl).forEach(next -> successors.add(byName.get(next)));
      assertThat(successors).as("successors of %s", state.stateName()).isEqualTo(state.next());
      assertThat(asl.path("End").asBoolean(false)).isEqualTo(state.isFinal());
    }
  }

  @Test
  void everyTaskHasATimeoutARetryAndACatchThatLandsInFailed() throws Exception {
    JsonNode states = definition().get("States");
    List<String> tasks = new ArrayList<>();
    states
        .fields()
        .forEachRemaining(
            entry -> {
              if (entry.getValue().get("Type").asText().equals("Task")) {
                tasks.add(entry.getKey());
                JsonNode task = entry.getValue();
                assertThat(task.has("TimeoutSeconds") || task.has("TimeoutSecondsPath"))
                    .as(entry.getKey() + " has a timeout")
                    .isTrue();
                assertThat(task.get("Retry")).as(entry.getKey() + " retries").isNotEmpty();
                JsonNode last = task.get("Catch").get(task.get("Catch").size() - 1);
                assertThat(last.get("ErrorEquals").get(0).asText()).isEqualTo("States.ALL");
                assertThat(last.get("Next").asText()).isEqualTo(FlowState.FAILED.stateName());
              }
            });
    assertThat(tasks).containsExactlyInAnyOrder("Plan", "RequestApproval", "Apply");
    assertThat(definition().get("TimeoutSeconds").asLong()).isPositive();
  }

  @Test
  void aPlanTaskThatStopsSendingHeartbeatsFailsInMinutesWhileApplyIsWatchedByEcsItself()
      throws Exception {
    JsonNode states = definition().get("States");
    // The window opens when the task is launched, so it covers Fargate's provisioning, the image
    // pull and the JVM's start (10 minutes allowed) before terra-run's first heartbeat; then it
    // sends one every 60 s (aws SfnHeartbeat) and five may be missed. A pull that fails or a task
    // that stops while starting is not left to this window: the StoppedTasks rule fails the token.
    assertThat(states.get("Plan").get("HeartbeatSeconds").asLong()).isEqualTo(600 + 5 * 60);
    assertThat(states.get("Plan").get("Resource").asText()).endsWith(".waitForTaskToken");
    // Apply runs .sync: Step Functions itself fails it when its container stops.
    assertThat(states.get("Apply").get("Resource").asText()).endsWith("ecs:runTask.sync");
  }

  @Test
  void aVoteTimeoutIsDecidedAsARejectionAndOnlyApprovedApplies() throws Exception {
    JsonNode states = definition().get("States");
    JsonNode timeout = states.get("RequestApproval").get("Catch").get(0);
    assertThat(timeout.get("ErrorEquals").get(0).asText()).isEqualTo("States.Timeout");
    assertThat(timeout.get("Next").asText()).isEqualTo("Decide");
    assertThat(states.get("RequestApproval").get("TimeoutSecondsPath").asText())
        .isEqualTo("$." + FlowInput.APPROVAL_TIMEOUT_SECONDS);

    JsonNode decide = states.get("Decide");
    assertThat(decide.get("Default").asText()).isEqualTo("Rejected");
    Map<String, String> nextByValue = new HashMap<>();
    for (JsonNode choice : decide.get("Choices")) {
      for (JsonNode rule : choice.get("And")) {
        assertThat(rule.get("Variable").asText())
            .isEqualTo("$.decision." + DeployFlow.DECISION_FIELD);
        if (rule.has("StringEquals")) {
          nextByValue.put(rule.get("StringEquals").asText(), choice.get("Next").asText());
        }
      }
    }
    assertThat(nextByValue)
        .containsExactlyInAnyOrderEntriesOf(
            Map.of(FlowDecision.APPROVED.id(), "Apply", FlowDecision.SKIPPED.id(), "Succeeded"));
  }

  @Test
  void theTasksGetTheEnvironmentAndCommandsThatTerraRunReads() throws Exception {
    JsonNode states = definition().get("States");
    Map<String, List<String>> environment = new HashMap<>();
    Map<String, List<String>> commands = new HashMap<>();
    for (String state : List.of("Plan", "Apply")) {
      JsonNode container =
          states.get(state).get("Parameters").get("Overrides").get("ContainerOverrides").get(0);
      assertThat(container.get("Name").asText()).isEqualTo("${TerraRunContainerName}");
      List<String> names = new ArrayList<>();
      container.get("Environment").forEach(variable -> names.add(variable.get("Name").asText()));
      environment.put(state, names);
      List<String> command = new ArrayList<>();
      container.get("Command").forEach(argument -> command.add(argument.asText()));
      commands.put(state, command);
    }
    assertThat(environment.get("Plan"))
        .containsExactly(DeployFlow.EXECUTION_ID_ENV, DeployFlow.TASK_TOKEN_ENV);
    assertThat(environment.get("Apply")).containsExactly(DeployFlow.EXECUTION_ID_ENV);
    assertThat(commands.get("Plan")).containsExactly(DeployFlow.TERRA_RUN, DeployFlow.PLAN_MODE);
    assertThat(commands.get("Apply")).containsExactly(DeployFlow.TERRA_RUN, DeployFlow.APPLY_MODE);
    assertThat(states.get("Plan").get("Retry").get(0).get("ErrorEquals").toString())
        .contains(DeployFlow.TRANSIENT_ERROR);
  }

  @Test
  void aPlanWhoseTaskStoppedOrWhoseSubnetsWereRefusedIsStartedAgain() throws Exception {
    JsonNode states = definition().get("States");
    Map<String, Integer> planAttempts = new HashMap<>();
    for (JsonNode retry : states.get("Plan").get("Retry")) {
      retry
          .get("ErrorEquals")
          .forEach(error -> planAttempts.put(error.asText(), retry.get("MaxAttempts").asInt()));
    }
    assertThat(planAttempts)
        .containsEntry(DeployFlow.TASK_STOPPED_ERROR, 1)
        .containsEntry(DeployFlow.ECS_INVALID_PARAMETER, 3);
    // Apply too, for RunTask's refusal, which starts no task; never for a stopped apply's token.
    assertThat(states.get("Apply").get("Retry").get(0).get("ErrorEquals").toString())
        .contains(DeployFlow.ECS_INVALID_PARAMETER)
        .doesNotContain(DeployFlow.TASK_STOPPED_ERROR);
  }

  @Test
  void anApplyWhoseTaskStoppedIsRetriedOnceSoTerraRunCanFinishIt() throws Exception {
    JsonNode retries = definition().get("States").get("Apply").get("Retry");

    assertThat(retries.findValues("ErrorEquals").toString()).contains("States.TaskFailed");
    for (JsonNode retry : retries) {
      if (retry.get("ErrorEquals").toString().contains("States.TaskFailed")) {
        assertThat(retry.get("MaxAttempts").asInt()).isEqualTo(1);
      }
    }
  }

  @Test
  void theEndsOutputTheExecutionIdAndAStatusTheTriggerReads() throws Exception {
    JsonNode states = definition().get("States");
    Map<String, ExecutionStatus> expected =
        Map.of(
            "Succeeded", ExecutionStatus.SUCCEEDED,
            "Rejected", ExecutionStatus.REJECTED,
            "Failed", ExecutionStatus.FAILED);
    expected.forEach(
        (state, status) -> {
          JsonNode parameters = states.get(state).get("Parameters");
          assertThat(parameters.get(FlowInput.EXECUTION_ID + ".$").asText())
              .isEqualTo("$." + FlowInput.EXECUTION_ID);
          String output =
              MAPPER
                  .createObjectNode()
                  .put(FlowInput.EXECUTION_ID, 7)
                  .put(FlowOutput.STATUS, parameters.get(FlowOutput.STATUS).asText())
                  .toString();
          assertThat(FlowOutput.fromJson(output)).isEqualTo(new FlowOutput(7, status));
        });
  }

  @Test
  void renderFillsEveryPlaceholderAndTheFlowTimeout() throws Exception {
    String rendered = DeployFlow.render(values(), 30);
    assertThat(rendered).doesNotContain("${");
    JsonNode definition = MAPPER.readTree(rendered);
    assertThat(definition.get("TimeoutSeconds").asLong()).isEqualTo(30);
    JsonNode plan = definition.get("States").get("Plan").get("Parameters");
    assertThat(plan.get("Cluster").asText()).isEqualTo("arn:cluster");
    assertThat(plan.get("TaskDefinition").asText()).isEqualTo("arn:terra-run-plan");
    assertThat(
            definition.get("States").get("Apply").get("Parameters").get("TaskDefinition").asText())
        .isEqualTo("arn:terra-run-apply");
    assertThat(
            plan.get("NetworkConfiguration").get("AwsvpcConfiguration").get("Subnets.$").asText())
        .isEqualTo("States.StringSplit('subnet-1,subnet-2', ',')");
    assertThat(definition.get("States").get("Plan").get("TimeoutSeconds").asLong()).isEqualTo(7200);
  }

  @Test
  void renderRefusesMissingOrQuotedValues() {
    EnumMap<DeployFlow.Substitution, String> missing = values();
    missing.remove(DeployFlow.Substitution.APPROVAL_TOPIC_ARN);
    assertThatThrownBy(() -> DeployFlow.render(missing, 30))
        .isInstanceOf(LivegateException.class)
        .hasMessageContaining("ApprovalTopicArn");
    for (String hostile : List.of("a\"b", "a'b", "a\\b", "a\nb")) {
      EnumMap<DeployFlow.Substitution, String> quoted = values();
      quoted.put(DeployFlow.Substitution.SUBNET_IDS, hostile);
      assertThatThrownBy(() -> DeployFlow.render(quoted, 30))
          .isInstanceOf(LivegateException.class)
          .hasMessageContaining("SubnetIds");
    }
  }

  private static EnumMap<DeployFlow.Substitution, String> values() {
    EnumMap<DeployFlow.Substitution, String> values = new EnumMap<>(DeployFlow.Substitution.class);
    values.put(DeployFlow.Substitution.CLUSTER_ARN, "arn:cluster");
    values.put(DeployFlow.Substitution.TERRA_RUN_PLAN_TASK_DEFINITION_ARN, "arn:terra-run-plan");
    values.put(DeployFlow.Substitution.TERRA_RUN_APPLY_TASK_DEFINITION_ARN, "arn:terra-run-apply");
    values.put(DeployFlow.Substitution.TERRA_RUN_CONTAINER_NAME, DeployFlow.TERRA_RUN);
    values.put(DeployFlow.Substitution.SUBNET_IDS, "subnet-1,subnet-2");
    values.put(DeployFlow.Substitution.SECURITY_GROUP_IDS, "sg-1");
    values.put(DeployFlow.Substitution.APPROVAL_TOPIC_ARN, "arn:topic");
    return values;
  }

  private static List<String> successorsOf(JsonNode state) {
    List<String> next = new ArrayList<>();
    if (state.has("Next")) {
      next.add(state.get("Next").asText());
    }
    if (state.has("Default")) {
      next.add(state.get("Default").asText());
    }
    state.path("Choices").forEach(choice -> next.add(choice.get("Next").asText()));
    state.path("Catch").forEach(c -> next.add(c.get("Next").asText()));
    return next;
  }
}
