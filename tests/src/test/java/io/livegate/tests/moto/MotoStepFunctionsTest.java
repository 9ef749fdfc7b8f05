package io.livegate.tests.moto;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import software.amazon.awssdk.services.ecs.EcsClient;
import software.amazon.awssdk.services.ecs.model.Compatibility;
import software.amazon.awssdk.services.ecs.model.NetworkMode;
import software.amazon.awssdk.services.ecs.model.Task;
import software.amazon.awssdk.services.sfn.SfnClient;
import software.amazon.awssdk.services.sfn.model.DescribeExecutionResponse;
import software.amazon.awssdk.services.sfn.model.ExecutionAlreadyExistsException;
import software.amazon.awssdk.services.sfn.model.ExecutionStatus;
import software.amazon.awssdk.services.sns.SnsClient;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.Message;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;

/**
 * The Step Functions integrations that livegate's ASL uses, run for real in moto: each state
 * machine is a fixture under {@code src/test/resources/io/livegate/tests/moto}, and the test plays
 * the part of the ECS container or of the approver.
 */
@Tag("moto")
class MotoStepFunctionsTest {
  @RegisterExtension static final MotoServer MOTO = new MotoServer();

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String ROLE = "arn:aws:iam::123456789012:role/livegate-flow";
  private static final String UNIT = "live/prod/network";

  /** Long enough for moto's .sync state to describe a task six times. */
  private static final Duration SLOW_CONTAINER = Duration.ofSeconds(3);

  private static SfnClient sfn;
  private static EcsClient ecs;
  private static SnsClient sns;
  private static SqsClient sqs;

  @BeforeAll
  static void clients() {
    sfn = MOTO.client(SfnClient.builder());
    ecs = MOTO.client(EcsClient.builder());
    sns = MOTO.client(SnsClient.builder());
    sqs = MOTO.client(SqsClient.builder());
  }

  @AfterAll
  static void closeClients() {
    sqs.close();
    sns.close();
    ecs.close();
    sfn.close();
  }

  @BeforeEach
  void emptyMoto() {
    MOTO.reset();
  }

  @Test
  void taskTokenReadFromTheEcsTaskEnvironmentResumesTheStateWithTheSentOutput() {
    ObjectNode input = ecsInput().put("timeoutSeconds", 60);
    String executionArn = start(stateMachine("ecs-task-token"), input);

    String cluster = input.get("cluster").asText();
    Task task = MOTO.awaitRunningTask(cluster);
    Map<String, String> environment = MOTO.taskEnvironment(cluster, task.taskArn());
    assertThat(environment).containsEntry("UNIT", UNIT).containsKey("TASK_TOKEN");
    sfn.sendTaskSuccess(
        request ->
            request
                .taskToken(environment.get("TASK_TOKEN"))
                .output("{\"applied\":true,\"changes\":3}"));

    DescribeExecutionResponse execution = MOTO.awaitExecutionEnd(executionArn);
    assertThat(execution.status()).isEqualTo(ExecutionStatus.SUCCEEDED);
    JsonNode output = json(execution.output());
    assertThat(output.get("result")).isEqualTo(json("{\"applied\":true,\"changes\":3}"));
    assertThat(output.path("unit").asText()).isEqualTo(UNIT);
    assertThat(output.has("outcome")).isFalse();
  }

  @Test
  void taskFailureSentWithTheEcsTaskTokenReachesTheCatchOfItsError() {
    ObjectNode input = ecsInput().put("timeoutSeconds", 60);
    String executionArn = start(stateMachine("ecs-task-token"), input);

    String cluster = input.get("cluster").asText();
    Task task = MOTO.awaitRunningTask(cluster);
    sfn.sendTaskFailure(
        request ->
            request
                .taskToken(MOTO.taskEnvironment(cluster, task.taskArn()).get("TASK_TOKEN"))
                .error("Livegate.TerraformFailed")
                .cause("terraform apply exited with 1"));

    DescribeExecutionResponse execution = MOTO.awaitExecutionEnd(executionArn);
    assertThat(execution.status()).isEqualTo(ExecutionStatus.SUCCEEDED);
    JsonNode output = json(execution.output());
    assertThat(output.path("outcome").asText()).isEqualTo("terraform failed");
    assertThat(output.at("/error/Error").asText()).isEqualTo("Livegate.TerraformFailed");
    assertThat(output.at("/error/Cause").asText()).isEqualTo("terraform apply exited with 1");
  }

  @Test
  void taskTokenNotSentWithinTimeoutSecondsPathIsCaughtAsStatesTimeout() {
    ObjectNode input = ecsInput().put("timeoutSeconds", 1);
    String executionArn = start(stateMachine("ecs-task-token"), input);

    DescribeExecutionResponse execution = MOTO.awaitExecutionEnd(executionArn);

    assertThat(execution.status()).isEqualTo(ExecutionStatus.SUCCEEDED);
    JsonNode output = json(execution.output());
    assertThat(output.path("outcome").asText()).isEqualTo("timed out");
    assertThat(output.at("/error/Error").asText()).isEqualTo("States.Timeout");
  }

  @Test
  void syncEcsTaskStoppedWithExitCodeZeroSucceedsTheState() {
    ObjectNode input = ecsInput();
    String executionArn = start(stateMachine("ecs-sync"), input);

    String cluster = input.get("cluster").asText();
    Task task = MOTO.awaitRunningTask(cluster);
    assertThat(task.startedBy()).isEqualTo("AWS Step Functions");
    assertThat(MOTO.taskEnvironment(cluster, task.taskArn())).containsEntry("UNIT", UNIT);
    MOTO.stopTask(cluster, task.taskArn(), 0);

    DescribeExecutionResponse execution = MOTO.awaitExecutionEnd(executionArn);
    assertThat(execution.status()).isEqualTo(ExecutionStatus.SUCCEEDED);
    JsonNode output = json(execution.output());
    assertThat(output.at("/task/lastStatus").asText()).isEqualTo("STOPPED");
    assertThat(output.at("/task/stoppedReason").asText()).isEqualTo("livegate-test exit code 0");
    assertThat(output.at("/task/containers/0/Name").asText()).isEqualTo("terra-run");
    assertThat(output.at("/task/containers/0/ExitCode").asInt(-1)).isZero();
    assertThat(output.has("outcome")).isFalse();
  }

  /**
   * moto's own task lifecycle moves a task towards STOPPED each time it is described, and a .sync
   * state describes it every half second; the launcher turns that off, so the task runs as long as
   * the harness takes to play its container.
   */
  @Test
  void syncEcsTaskRunsUntilTheHarnessStopsIt() throws InterruptedException {
    ObjectNode input = ecsInput();
    String executionArn = start(stateMachine("ecs-sync"), input);
    String cluster = input.get("cluster").asText();
    Task task = MOTO.awaitRunningTask(cluster);

    Thread.sleep(SLOW_CONTAINER.toMillis());

    assertThat(sfn.describeExecution(request -> request.executionArn(executionArn)).status())
        .isEqualTo(ExecutionStatus.RUNNING);
    assertThat(MOTO.awaitRunningTask(cluster).lastStatus()).isEqualTo("RUNNING");
    MOTO.stopTask(cluster, task.taskArn(), 0);
    assertThat(MOTO.awaitExecutionEnd(executionArn).status()).isEqualTo(ExecutionStatus.SUCCEEDED);
  }

  @Test
  void syncEcsTaskStoppedWithExitCodeOneFailsTheStateIntoItsCatch() {
    ObjectNode input = ecsInput();
    String executionArn = start(stateMachine("ecs-sync"), input);

    String cluster = input.get("cluster").asText();
    Task task = MOTO.awaitRunningTask(cluster);
    MOTO.stopTask(cluster, task.taskArn(), 1);

    DescribeExecutionResponse execution = MOTO.awaitExecutionEnd(executionArn);
    assertThat(execution.status()).isEqualTo(ExecutionStatus.SUCCEEDED);
    JsonNode output = json(execution.output());
    assertThat(output.path("outcome").asText()).isEqualTo("task failed");
    assertThat(output.has("task")).isFalse();
    assertThat(output.at("/error/Error").asText()).isEqualTo("States.TaskFailed");
    JsonNode stoppedTask = json(output.at("/error/Cause").asText());
    assertThat(stoppedTask.get("TaskArn").asText()).isEqualTo(task.taskArn());
    assertThat(stoppedTask.get("StoppedReason").asText()).isEqualTo("livegate-test exit code 1");
    assertThat(stoppedTask.at("/Containers/0/ExitCode").asInt()).isEqualTo(1);
  }

  /**
   * The queue subscribes with raw message delivery, so its message body is the published Message:
   * the ASL's JSON object, serialized by Step Functions, with the task token in it.
   */
  @Test
  void taskTokenPublishedToATopicReachesARawSqsSubscriberAndResumesTheState() {
    String topicArn = sns.createTopic(request -> request.name("livegate-approvals")).topicArn();
    String queueUrl = sqs.createQueue(request -> request.queueName("approver")).queueUrl();
    String queueArn =
        sqs.getQueueAttributes(
                request -> request.queueUrl(queueUrl).attributeNames(QueueAttributeName.QUEUE_ARN))
            .attributes()
            .get(QueueAttributeName.QUEUE_ARN);
    sns.subscribe(
        request ->
            request
                .topicArn(topicArn)
                .protocol("sqs")
                .endpoint(queueArn)
                .attributes(Map.of("RawMessageDelivery", "true")));
    ObjectNode input = JSON.createObjectNode().put("topicArn", topicArn).put("unit", UNIT);
    String executionArn = start(stateMachine("sns-task-token"), input);

    Message message =
        MOTO.await(
            "an approval request on " + queueUrl,
            () ->
                sqs.receiveMessage(request -> request.queueUrl(queueUrl)).messages().stream()
                    .findFirst());
    JsonNode request = json(message.body());
    assertThat(request.get("unit").asText()).isEqualTo(UNIT);
    assertThat(request.fieldNames()).toIterable().containsExactlyInAnyOrder("unit", "taskToken");
    sfn.sendTaskSuccess(
        success ->
            success.taskToken(request.get("taskToken").asText()).output("{\"vote\":\"approve\"}"));

    DescribeExecutionResponse execution = MOTO.awaitExecutionEnd(executionArn);
    assertThat(execution.status()).isEqualTo(ExecutionStatus.SUCCEEDED);
    assertThat(json(execution.output()).get("approval")).isEqualTo(json("{\"vote\":\"approve\"}"));
  }

  @Test
  void stateMachineTimeoutSecondsEndsTheExecutionTimedOut() {
    String executionArn = start(stateMachine("execution-timeout"), JSON.createObjectNode());

    assertThat(MOTO.awaitExecutionEnd(executionArn).status()).isEqualTo(ExecutionStatus.TIMED_OUT);
  }

  @Test
  void choiceWithIsPresentTakesTheBranchOfTheFieldThatIsThere() {
    String stateMachineArn = stateMachine("choice-is-present");

    String approved =
        start(stateMachineArn, JSON.createObjectNode().put("approval", "alice@example.com"));
    String unapproved = start(stateMachineArn, JSON.createObjectNode());

    assertThat(json(MOTO.awaitExecutionEnd(approved).output()).get("next").asText())
        .isEqualTo("deploy");
    assertThat(json(MOTO.awaitExecutionEnd(unapproved).output()).get("next").asText())
        .isEqualTo("ask for approval");
  }

  @Test
  void executionsStartedOneAfterAnotherWithoutNamesAllRunToTheEnd() {
    String stateMachineArn = stateMachine("wait");
    ObjectNode input = JSON.createObjectNode().put("seconds", 0);

    String first = start(stateMachineArn, input);
    DescribeExecutionResponse firstEnd = MOTO.awaitExecutionEnd(first);
    String second = start(stateMachineArn, input);
    String third = start(stateMachineArn, input);

    assertThat(firstEnd.status()).isEqualTo(ExecutionStatus.SUCCEEDED);
    assertThat(MOTO.awaitExecutionEnd(second).status()).isEqualTo(ExecutionStatus.SUCCEEDED);
    assertThat(MOTO.awaitExecutionEnd(third).status()).isEqualTo(ExecutionStatus.SUCCEEDED);
    assertThat(new String[] {first, second, third}).doesNotHaveDuplicates();
  }

  @Test
  void sameNameAndInputIsIdempotentWhileRunningAndAlreadyExistsOnceEnded() {
    String stateMachineArn = stateMachine("wait");
    String input = "{\"seconds\":1}";

    String first = startNamed(stateMachineArn, "deploy-42", input);
    String again = startNamed(stateMachineArn, "deploy-42", input);

    assertThat(again).isEqualTo(first);
    assertThatThrownBy(() -> startNamed(stateMachineArn, "deploy-42", "{\"seconds\":2}"))
        .isInstanceOf(ExecutionAlreadyExistsException.class);
    assertThat(MOTO.awaitExecutionEnd(first).status()).isEqualTo(ExecutionStatus.SUCCEEDED);
    assertThatThrownBy(() -> startNamed(stateMachineArn, "deploy-42", input))
        .isInstanceOf(ExecutionAlreadyExistsException.class);
  }

  /** A cluster and a Fargate task definition for terra-run, and the input naming them. */
  private static ObjectNode ecsInput() {
    String cluster =
        ecs.createCluster(request -> request.clusterName("livegate")).cluster().clusterArn();
    String taskDefinition =
        ecs.registerTaskDefinition(
                request ->
                    request
                        .family("terra-run")
                        .requiresCompatibilities(Compatibility.FARGATE)
                        .networkMode(NetworkMode.AWSVPC)
                        .cpu("256")
                        .memory("512")
                        .containerDefinitions(
                            // moto's RunTask needs the container's memory even on Fargate.
                            container ->
                                container
                                    .name("terra-run")
                                    .image("livegate/ecs-tasks:test")
                                    .memory(512)
                                    .essential(true)))
            .taskDefinition()
            .taskDefinitionArn();
    MotoServer.Network network = MOTO.network();
    ObjectNode input =
        JSON.createObjectNode()
            .put("cluster", cluster)
            .put("taskDefinition", taskDefinition)
            .put("unit", UNIT);
    input.putArray("subnets").add(network.subnetId());
    input.putArray("securityGroups").add(network.securityGroupId());
    return input;
  }

  private static String stateMachine(String fixture) {
    String definition = resource(fixture + ".asl.json");
    return sfn.createStateMachine(
            request -> request.name(fixture).roleArn(ROLE).definition(definition))
        .stateMachineArn();
  }

  private static String start(String stateMachineArn, JsonNode input) {
    return sfn.startExecution(
            request -> request.stateMachineArn(stateMachineArn).input(input.toString()))
        .executionArn();
  }

  private static String startNamed(String stateMachineArn, String name, String input) {
    return sfn.startExecution(
            request -> request.stateMachineArn(stateMachineArn).name(name).input(input))
        .executionArn();
  }

  private static String resource(String name) {
    try (InputStream stream =
        Objects.requireNonNull(
            MotoStepFunctionsTest.class.getResourceAsStream(name), "no resource " + name)) {
      return new String(stream.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static JsonNode json(String text) {
    try {
      return JSON.readTree(text);
    } catch (IOException e) {
      throw new UncheckedIOException("not JSON: " + text, e);
    }
  }
}
