package io.livegate.cdk;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.livegate.statemachine.RuntimeContract;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import software.amazon.awscdk.CfnElement;
import software.constructs.IConstruct;

/**
 * The alarms, their topic, the approval dead-letter queue and the watchdog's schedule, as the
 * fixture installation with two operator addresses synthesizes them.
 */
class AlarmsTest {
  private static final List<String> OPERATORS = List.of("oncall@example.com", "sre@example.com");

  private static Fixtures.Synthesized synthesized;

  private final Fixtures.Synthesized synth = synthesized();
  private final LivegateStack stack = synth.stack();
  private final JsonNode json = Iam.JSON.valueToTree(synth.template().toJSON());

  private static synchronized Fixtures.Synthesized synthesized() {
    if (synthesized == null) {
      synthesized =
          Fixtures.synth(
              Fixtures.config()
                  .alarmEmails(OPERATORS)
                  .scanTimeout(java.time.Duration.ofMinutes(45))
                  .lockAlarmAfter(java.time.Duration.ofHours(30))
                  .build());
    }
    return synthesized;
  }

  private String id(IConstruct construct) {
    return stack.getLogicalId((CfnElement) construct.getNode().getDefaultChild());
  }

  private JsonNode resolved(Object value) {
    return Iam.JSON.valueToTree(stack.resolve(value));
  }

  /** The properties of the resources of {@code type}, by logical id. */
  private Map<String, JsonNode> resources(String type) {
    Map<String, JsonNode> properties = new TreeMap<>();
    LivegateStackTest.resources(json, type)
        .forEach((id, resource) -> properties.put(id, resource.path("Properties")));
    return properties;
  }

  private JsonNode alarm(String logicalIdPrefix) {
    return resources("AWS::CloudWatch::Alarm").entrySet().stream()
        .filter(entry -> entry.getKey().startsWith(logicalIdPrefix))
        .map(Map.Entry::getValue)
        .findFirst()
        .orElseThrow(() -> new AssertionError("no alarm " + logicalIdPrefix));
  }

  /** The alarm notifies the operators' topic and fires on its first bad 5-minute period. */
  private void pagesOnFirstPeriod(JsonNode alarm) {
    assertThat(alarm.path("AlarmActions"))
        .containsExactly(resolved(stack.operatorTopic().getTopicArn()));
    assertThat(alarm.path("EvaluationPeriods").asInt()).isEqualTo(1);
    assertThat(alarm.path("Period").asInt()).isEqualTo(300);
    assertThat(alarm.path("TreatMissingData").asText()).isEqualTo("notBreaching");
  }

  private void atLeastOne(JsonNode alarm, String namespace, String metric, String statistic) {
    pagesOnFirstPeriod(alarm);
    assertThat(alarm.path("Namespace").asText()).isEqualTo(namespace);
    assertThat(alarm.path("MetricName").asText()).isEqualTo(metric);
    assertThat(alarm.path("Statistic").asText()).isEqualTo(statistic);
    assertThat(alarm.path("ComparisonOperator").asText())
        .isEqualTo("GreaterThanOrEqualToThreshold");
    assertThat(alarm.path("Threshold").asDouble()).isEqualTo(1);
  }

  private JsonNode dimension(JsonNode alarm, String name) {
    for (JsonNode dimension : alarm.path("Dimensions")) {
      if (dimension.path("Name").asText().equals(name)) {
        return dimension.path("Value");
      }
    }
    throw new AssertionError("no dimension " + name + " in " + alarm);
  }

  @Test
  void everyOperatorAddressIsAnEmailSubscriptionOfAnUnencryptedTlsOnlyTopic() {
    JsonNode topic = json.path("Resources").path(id(stack.operatorTopic())).path("Properties");
    // CloudWatch cannot publish to a topic under the AWS-managed SNS key.
    assertThat(topic.has("KmsMasterKeyId")).isFalse();
    assertThat(resources("AWS::SNS::TopicPolicy").values().toString())
        .contains("aws:SecureTransport");
    assertThat(
            resources("AWS::SNS::Subscription").values().stream()
                .filter(s -> s.path("Protocol").asText().equals("email"))
                .peek(
                    s ->
                        assertThat(s.path("TopicArn"))
                            .isEqualTo(resolved(stack.operatorTopic().getTopicArn())))
                .map(s -> s.path("Endpoint").asText())
                .toList())
        .containsExactlyInAnyOrderElementsOf(OPERATORS);
    assertThat(json.path("Outputs").path("OperatorTopicArn").path("Value"))
        .isEqualTo(resolved(stack.operatorTopic().getTopicArn()));
  }

  @Test
  void bothDeadLetterQueuesPageOnTheirFirstMessage() {
    JsonNode trigger = alarm("TriggerDeadLettersAlarm");
    atLeastOne(trigger, "AWS/SQS", "ApproximateNumberOfMessagesVisible", "Maximum");
    assertThat(dimension(trigger, "QueueName"))
        .isEqualTo(resolved(stack.deadLetters().getQueueName()));
    JsonNode approval = alarm("ApprovalDeadLettersAlarm");
    atLeastOne(approval, "AWS/SQS", "ApproximateNumberOfMessagesVisible", "Maximum");
    assertThat(dimension(approval, "QueueName"))
        .isEqualTo(resolved(stack.approvalDeadLetters().getQueueName()));
  }

  @Test
  void failedAndTimedOutDeployFlowsPage() {
    JsonNode failed = alarm("FlowsFailedAlarm");
    atLeastOne(failed, "AWS/States", "ExecutionsFailed", "Sum");
    assertThat(dimension(failed, "StateMachineArn"))
        .isEqualTo(resolved(stack.deployFlow().getStateMachineArn()));
    JsonNode timedOut = alarm("FlowsTimedOutAlarm");
    atLeastOne(timedOut, "AWS/States", "ExecutionsTimedOut", "Sum");
    assertThat(dimension(timedOut, "StateMachineArn"))
        .isEqualTo(resolved(stack.deployFlow().getStateMachineArn()));
  }

  @Test
  void everyLambdaPagesOnErrorsAndOnThrottles() {
    assertThat(stack.functions().keySet())
        .containsExactlyInAnyOrder(
            "webhook", "trigger", "approval-request", "approval-response", "admin", "migrate");
    stack
        .functions()
        .forEach(
            (name, function) -> {
              String construct = function.getNode().getId();
              JsonNode errors = alarm(construct + "ErrorsAlarm");
              atLeastOne(errors, "AWS/Lambda", "Errors", "Sum");
              assertThat(dimension(errors, "FunctionName"))
                  .as(name)
                  .isEqualTo(resolved(function.getFunctionName()));
              JsonNode throttles = alarm(construct + "ThrottlesAlarm");
              atLeastOne(throttles, "AWS/Lambda", "Throttles", "Sum");
              assertThat(dimension(throttles, "FunctionName"))
                  .as(name)
                  .isEqualTo(resolved(function.getFunctionName()));
            });
  }

  @Test
  void aLockHeldLongerThanTheConfiguredTimePagesFromTheWatchdogsMetric() {
    JsonNode lock = alarm("LockHeldAlarm");
    pagesOnFirstPeriod(lock);
    assertThat(lock.path("Namespace").asText()).isEqualTo("livegate/Livegate");
    assertThat(lock.path("MetricName").asText())
        .isEqualTo(RuntimeContract.Watchdog.LOCK_HELD_METRIC);
    assertThat(lock.path("Statistic").asText()).isEqualTo("Maximum");
    assertThat(lock.path("ComparisonOperator").asText()).isEqualTo("GreaterThanThreshold");
    assertThat(lock.path("Threshold").asDouble()).isEqualTo(30 * 3600);
    assertThat(lock.has("Dimensions")).isFalse();
  }

  @Test
  void aScanTheWatchdogStoppedPastItsTimeoutPages() {
    JsonNode scan = alarm("ScanPastTimeoutAlarm");
    atLeastOne(scan, "livegate/Livegate", RuntimeContract.Watchdog.SCANS_STOPPED_METRIC, "Sum");
    assertThat(scan.has("Dimensions")).isFalse();
  }

  @Test
  void theTriggerGetsTheWatchdogsTickEveryFiveMinutesWithItsTimeoutAndNamespace() {
    JsonNode rule =
        resources("AWS::Events::Rule").entrySet().stream()
            .filter(entry -> entry.getKey().startsWith("WatchdogSchedule"))
            .findFirst()
            .orElseThrow()
            .getValue();
    assertThat(rule.path("ScheduleExpression").asText()).isEqualTo("rate(5 minutes)");
    JsonNode target = rule.path("Targets").get(0);
    assertThat(target.path("Arn").path("Ref").asText()).startsWith("TriggerLiveAlias");
    assertThat(target.path("DeadLetterConfig").path("Arn"))
        .isEqualTo(resolved(stack.deadLetters().getQueueArn()));
    JsonNode variables = LivegateStackTest.functionVariables(stack, json, "trigger");
    assertThat(variables.path(RuntimeContract.Watchdog.SCAN_TIMEOUT).asText()).isEqualTo("PT45M");
    assertThat(variables.path(RuntimeContract.Watchdog.METRIC_NAMESPACE).asText())
        .isEqualTo("livegate/Livegate");
  }

  @Test
  void approvalRequestsThatFailOrCannotBeDeliveredLandInTheirOwnDeadLetterQueue() {
    JsonNode queueArn = resolved(stack.approvalDeadLetters().getQueueArn());
    JsonNode lambdaSubscription =
        resources("AWS::SNS::Subscription").values().stream()
            .filter(s -> s.path("Protocol").asText().equals("lambda"))
            .findFirst()
            .orElseThrow();
    assertThat(lambdaSubscription.path("RedrivePolicy").path("deadLetterTargetArn"))
        .isEqualTo(queueArn);
    JsonNode invokeConfig =
        resources("AWS::Lambda::EventInvokeConfig").values().stream()
            .filter(
                config ->
                    config
                        .path("FunctionName")
                        .equals(
                            resolved(stack.functions().get("approval-request").getFunctionName())))
            .findFirst()
            .orElseThrow();
    assertThat(invokeConfig.path("MaximumRetryAttempts").asInt()).isEqualTo(2);
    assertThat(invokeConfig.path("DestinationConfig").path("OnFailure").path("Destination"))
        .isEqualTo(queueArn);
    assertThat(json.path("Outputs").path("ApprovalDeadLetterQueueUrl").path("Value"))
        .isEqualTo(resolved(stack.approvalDeadLetters().getQueueUrl()));
    // SNS may send to it; nothing else is granted on it.
    assertThat(resources("AWS::SQS::QueuePolicy").values().toString())
        .contains("sns.amazonaws.com");
  }

  @Test
  void withoutOperatorAddressesTheTopicHasNoSubscriberButEveryAlarmStillNotifiesIt() {
    JsonNode shared = Shared.template();
    TreeSet<String> protocols = new TreeSet<>();
    shared
        .path("Resources")
        .forEach(
            resource -> {
              if (resource.path("Type").asText().equals("AWS::SNS::Subscription")) {
                protocols.add(resource.path("Properties").path("Protocol").asText());
              }
            });
    assertThat(protocols).containsExactly("lambda");
    int alarms = 0;
    for (JsonNode resource : shared.path("Resources")) {
      if (resource.path("Type").asText().equals("AWS::CloudWatch::Alarm")) {
        alarms++;
        assertThat(resource.path("Properties").path("AlarmActions").size()).isEqualTo(1);
      }
    }
    // Two queues, two flow outcomes, six Lambdas twice, the lock and the scans.
    assertThat(alarms).isEqualTo(2 + 2 + 12 + 2);
  }
}
