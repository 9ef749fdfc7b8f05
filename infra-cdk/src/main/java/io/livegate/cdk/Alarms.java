package io.livegate.cdk;

import io.livegate.statemachine.RuntimeContract;
import java.util.List;
import java.util.Map;
import software.amazon.awscdk.Duration;
import software.amazon.awscdk.Stack;
import software.amazon.awscdk.services.cloudwatch.Alarm;
import software.amazon.awscdk.services.cloudwatch.ComparisonOperator;
import software.amazon.awscdk.services.cloudwatch.IMetric;
import software.amazon.awscdk.services.cloudwatch.Metric;
import software.amazon.awscdk.services.cloudwatch.MetricOptions;
import software.amazon.awscdk.services.cloudwatch.TreatMissingData;
import software.amazon.awscdk.services.cloudwatch.actions.SnsAction;
import software.amazon.awscdk.services.lambda.Function;
import software.amazon.awscdk.services.sns.Topic;
import software.amazon.awscdk.services.sns.subscriptions.EmailSubscription;
import software.amazon.awscdk.services.sqs.Queue;
import software.amazon.awscdk.services.stepfunctions.StateMachine;
import software.constructs.Construct;

/**
 * What pages the operators: one SNS topic ({@code OperatorTopic}, the configured addresses
 * subscribed by e-mail) and an alarm per thing that needs a person, each with its runbook entry in
 * docs/operations.md under the alarm's name: the two dead-letter queues, failed and timed-out
 * deploy flows, every Lambda's errors and throttles, the merge lock held too long and scan tasks
 * the watchdog stopped (the last two from the trigger's watchdog metrics). Every alarm fires on its
 * first bad 5-minute period and clears itself when the period is good again. Like every construct
 * of the stack, it puts its resources in the stack ({@link LivegateStack} says why).
 */
public final class Alarms extends Construct {
  /** Every figure is looked at in 5-minute periods: the watchdog's schedule. */
  static final Duration PERIOD = Duration.minutes(5);

  /**
   * @param emails the operators' addresses, each an e-mail subscription of the topic
   * @param triggerDeadLetters the trigger's dead-letter queue
   * @param approvalDeadLetters approval-request's dead-letter queue
   * @param deployFlow the deploy flow's state machine
   * @param functions the Lambdas, by entry point
   * @param metricNamespace the watchdog's metrics' namespace
   * @param lockAlarmAfter how long the merge lock may be held before its alarm fires
   */
  public record Props(
      List<String> emails,
      Queue triggerDeadLetters,
      Queue approvalDeadLetters,
      StateMachine deployFlow,
      Map<String, Function> functions,
      String metricNamespace,
      java.time.Duration lockAlarmAfter) {}

  private final Stack stack;
  private final Topic topic;
  private final SnsAction action;

  public Alarms(Construct scope, String id, Props props) {
    super(scope, id);
    this.stack = Stack.of(this);
    // Not encrypted with alias/aws/sns like the approval topic: CloudWatch cannot publish to a
    // topic under an AWS-managed key, and an alarm's message holds no secret.
    this.topic =
        Topic.Builder.create(stack, "OperatorTopic")
            .displayName("livegate alarms")
            .enforceSsl(true)
            .build();
    props.emails().forEach(email -> topic.addSubscription(new EmailSubscription(email)));
    this.action = new SnsAction(topic);

    atLeastOne(
        "TriggerDeadLettersAlarm",
        "Trigger events failed after their retries and wait in the dead-letter queue",
        props.triggerDeadLetters().metricApproximateNumberOfMessagesVisible(maximum()));
    atLeastOne(
        "ApprovalDeadLettersAlarm",
        "Approval requests failed after their retries: voters were not mailed",
        props.approvalDeadLetters().metricApproximateNumberOfMessagesVisible(maximum()));
    atLeastOne(
        "FlowsFailedAlarm",
        "Deploy-flow executions failed",
        props.deployFlow().metricFailed(sum()));
    atLeastOne(
        "FlowsTimedOutAlarm",
        "Deploy-flow executions timed out",
        props.deployFlow().metricTimedOut(sum()));
    props.functions().entrySet().stream()
        .sorted(Map.Entry.comparingByKey())
        .forEach(
            entry -> {
              String name = entry.getValue().getNode().getId();
              atLeastOne(
                  name + "ErrorsAlarm",
                  "The " + entry.getKey() + " Lambda failed",
                  entry.getValue().metricErrors(sum()));
              atLeastOne(
                  name + "ThrottlesAlarm",
                  "The " + entry.getKey() + " Lambda was throttled",
                  entry.getValue().metricThrottles(sum()));
            });
    Alarm.Builder.create(stack, "LockHeldAlarm")
        .alarmDescription(
            "The merge lock is held longer than "
                + props.lockAlarmAfter()
                + " (docs/operations.md)")
        .metric(
            watchdog(props.metricNamespace(), RuntimeContract.Watchdog.LOCK_HELD_METRIC, "Maximum"))
        .comparisonOperator(ComparisonOperator.GREATER_THAN_THRESHOLD)
        .threshold(props.lockAlarmAfter().toSeconds())
        .evaluationPeriods(1)
        .treatMissingData(TreatMissingData.NOT_BREACHING)
        .build()
        .addAlarmAction(action);
    atLeastOne(
        "ScanPastTimeoutAlarm",
        "The watchdog stopped a create-deploy-stack task that ran past the scan timeout",
        watchdog(props.metricNamespace(), RuntimeContract.Watchdog.SCANS_STOPPED_METRIC, "Sum"));
  }

  /** The operators' topic every alarm notifies. */
  public Topic topic() {
    return topic;
  }

  /** An alarm on any occurrence in a period: what it counts needs a person every time. */
  private void atLeastOne(String id, String description, IMetric metric) {
    Alarm.Builder.create(stack, id)
        .alarmDescription(description + " (docs/operations.md, " + id + ")")
        .metric(metric)
        .comparisonOperator(ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD)
        .threshold(1)
        .evaluationPeriods(1)
        .treatMissingData(TreatMissingData.NOT_BREACHING)
        .build()
        .addAlarmAction(action);
  }

  private static Metric watchdog(String namespace, String name, String statistic) {
    return Metric.Builder.create()
        .namespace(namespace)
        .metricName(name)
        .statistic(statistic)
        .period(PERIOD)
        .build();
  }

  private static MetricOptions sum() {
    return MetricOptions.builder().statistic("Sum").period(PERIOD).build();
  }

  private static MetricOptions maximum() {
    return MetricOptions.builder().statistic("Maximum").period(PERIOD).build();
  }
}
