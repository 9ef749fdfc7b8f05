package io.livegate.cdk;

import io.livegate.statemachine.DeployFlow;
import io.livegate.statemachine.RuntimeContract;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import software.amazon.awscdk.Duration;
import software.amazon.awscdk.Stack;
import software.amazon.awscdk.services.events.EventPattern;
import software.amazon.awscdk.services.events.Rule;
import software.amazon.awscdk.services.events.Schedule;
import software.amazon.awscdk.services.events.targets.LambdaFunction;
import software.amazon.awscdk.services.kms.Alias;
import software.amazon.awscdk.services.lambda.EventInvokeConfigOptions;
import software.amazon.awscdk.services.lambda.IFunction;
import software.amazon.awscdk.services.lambda.destinations.SqsDestination;
import software.amazon.awscdk.services.logs.LogGroup;
import software.amazon.awscdk.services.logs.RetentionDays;
import software.amazon.awscdk.services.sns.Topic;
import software.amazon.awscdk.services.sqs.Queue;
import software.amazon.awscdk.services.sqs.QueueEncryption;
import software.amazon.awscdk.services.stepfunctions.DefinitionBody;
import software.amazon.awscdk.services.stepfunctions.LogLevel;
import software.amazon.awscdk.services.stepfunctions.LogOptions;
import software.amazon.awscdk.services.stepfunctions.StateMachine;
import software.amazon.awscdk.services.stepfunctions.StateMachineType;
import software.constructs.Construct;

/**
 * The deploy flow: the Step Functions state machine rendered from statemachine/'s ASL with the
 * cluster, the terra-run task definitions, the subnets, the task security group and the approval
 * topic in its placeholders; the approval topic its RequestApproval state publishes to; and, once
 * the trigger exists ({@link #sendStatusChangesTo}), the EventBridge rule that tells the trigger
 * about finished executions, with one dead-letter queue for what fails on the way. Like every
 * construct of the stack, it puts its resources in the stack ({@link LivegateStack} says why).
 */
public final class Flow extends Construct {
  /** The statuses Step Functions reports for a finished execution; the trigger acts on each. */
  static final List<String> FINAL_STATUSES = List.of("SUCCEEDED", "FAILED", "TIMED_OUT", "ABORTED");

  /**
   * @param network the subnets and the task security group the flow's tasks run in
   * @param tasks the cluster and the terra-run task definitions
   * @param timeout how long one unit's flow may take in all
   * @param logRetention the flow's log retention
   */
  public record Props(
      Network network, Tasks tasks, java.time.Duration timeout, RetentionDays logRetention) {}

  private final Stack stack;
  private final Topic approvalTopic;
  private final Queue deadLetters;
  private final Queue approvalDeadLetters;
  private final StateMachine stateMachine;

  public Flow(Construct scope, String id, Props props) {
    super(scope, id);
    this.stack = Stack.of(this);
    this.approvalTopic =
        Topic.Builder.create(stack, "ApprovalTopic")
            .displayName("livegate approval requests")
            .masterKey(Alias.fromAliasName(stack, "SnsKey", "alias/aws/sns"))
            .enforceSsl(true)
            .build();
    this.deadLetters =
        Queue.Builder.create(stack, "TriggerDeadLetters")
            .encryption(QueueEncryption.SQS_MANAGED)
            .enforceSsl(true)
            .retentionPeriod(Duration.days(14))
            .build();
    this.approvalDeadLetters =
        Queue.Builder.create(stack, "ApprovalDeadLetters")
            .encryption(QueueEncryption.SQS_MANAGED)
            .enforceSsl(true)
            .retentionPeriod(Duration.days(14))
            .build();

    Tasks tasks = props.tasks();
    Map<DeployFlow.Substitution, String> substitutions =
        new EnumMap<>(DeployFlow.Substitution.class);
    substitutions.put(DeployFlow.Substitution.CLUSTER_ARN, tasks.cluster().getClusterArn());
    substitutions.put(
        DeployFlow.Substitution.TERRA_RUN_PLAN_TASK_DEFINITION_ARN,
        tasks.terraRunPlan().getTaskDefinitionArn());
    substitutions.put(
        DeployFlow.Substitution.TERRA_RUN_APPLY_TASK_DEFINITION_ARN,
        tasks.terraRunApply().getTaskDefinitionArn());
    substitutions.put(DeployFlow.Substitution.TERRA_RUN_CONTAINER_NAME, DeployFlow.TERRA_RUN);
    substitutions.put(DeployFlow.Substitution.SUBNET_IDS, props.network().privateSubnetIds());
    substitutions.put(
        DeployFlow.Substitution.SECURITY_GROUP_IDS,
        props.network().taskSecurityGroup().getSecurityGroupId());
    substitutions.put(DeployFlow.Substitution.APPROVAL_TOPIC_ARN, approvalTopic.getTopicArn());
    LogGroup logs = LogGroups.create(stack, "DeployFlowLogs", props.logRetention());
    this.stateMachine =
        StateMachine.Builder.create(stack, "DeployFlow")
            .stateMachineType(StateMachineType.STANDARD)
            .definitionBody(
                DefinitionBody.fromString(
                    DeployFlow.render(substitutions, props.timeout().toSeconds())))
            .logs(
                LogOptions.builder()
                    .destination(logs)
                    .level(LogLevel.ALL)
                    .includeExecutionData(false)
                    .build())
            .build();
  }

  public StateMachine stateMachine() {
    return stateMachine;
  }

  public Topic approvalTopic() {
    return approvalTopic;
  }

  /** Trigger events that failed after their retries, kept 14 days for inspection and redrive. */
  public Queue deadLetters() {
    return deadLetters;
  }

  /**
   * Approval requests that approval-request could not handle after its retries, or that SNS could
   * not deliver to it, kept 14 days. A request lost silently would hold the lock for the whole
   * approval timeout with no voter mailed; here an alarm pages and an operator redrives it.
   */
  public Queue approvalDeadLetters() {
    return approvalDeadLetters;
  }

  /**
   * Sends the watchdog's tick to {@code trigger} every {@link Alarms#PERIOD}: EventBridge's
   * "Scheduled Event", which the trigger answers by stopping scans past their timeout and
   * publishing the lock's age, the metrics {@link Alarms} watches.
   */
  public void sendWatchdogTicksTo(IFunction trigger) {
    Rule.Builder.create(stack, "WatchdogSchedule")
        .description("The trigger's watchdog: scans past their timeout, the merge lock's age")
        .schedule(Schedule.rate(Alarms.PERIOD))
        .targets(
            List.of(
                LambdaFunction.Builder.create(trigger)
                    .deadLetterQueue(deadLetters)
                    .retryAttempts(2)
                    .maxEventAge(Duration.minutes(5))
                    .build()))
        .build();
  }

  /**
   * Sends every finished execution's status change to {@code trigger}. Both ways an event can fail
   * end in {@link #deadLetters}: EventBridge's deliveries, and the trigger's own errors on those
   * asynchronous invocations. CDK grants the trigger's role the sends to the queue here.
   */
  public void sendStatusChangesTo(IFunction trigger) {
    trigger.configureAsyncInvoke(
        EventInvokeConfigOptions.builder()
            .retryAttempts(2)
            .maxEventAge(Duration.hours(6))
            .onFailure(new SqsDestination(deadLetters))
            .build());
    Rule.Builder.create(stack, "FlowStatusChanges")
        .description("Deploy-flow executions that finished, for the trigger")
        .eventPattern(
            EventPattern.builder()
                .source(List.of("aws.states"))
                .detailType(List.of(RuntimeContract.Events.STATUS_CHANGE))
                .detail(
                    Map.of(
                        "stateMachineArn",
                        List.of(stateMachine.getStateMachineArn()),
                        "status",
                        FINAL_STATUSES))
                .build())
        .targets(
            List.of(
                LambdaFunction.Builder.create(trigger)
                    .deadLetterQueue(deadLetters)
                    .retryAttempts(20)
                    .maxEventAge(Duration.hours(24))
                    .build()))
        .build();
  }

  /**
   * Sends every stopped task of livegate's cluster to {@code trigger}, which reports a
   * create-deploy-stack or terra-run plan task that died before it reported (killed, out of memory,
   * image not pulled), so the deployment fails and the merge lock is handed on instead of waiting
   * for a timeout or an operator.
   */
  public void sendStoppedTasksTo(IFunction trigger, String clusterArn) {
    Rule.Builder.create(stack, "StoppedTasks")
        .description("livegate's ECS tasks that stopped, for the trigger")
        .eventPattern(
            EventPattern.builder()
                .source(List.of("aws.ecs"))
                .detailType(List.of(RuntimeContract.Events.TASK_STATE_CHANGE))
                .detail(Map.of("clusterArn", List.of(clusterArn), "lastStatus", List.of("STOPPED")))
                .build())
        .targets(
            List.of(
                LambdaFunction.Builder.create(trigger)
                    .deadLetterQueue(deadLetters)
                    .retryAttempts(20)
                    .maxEventAge(Duration.hours(24))
                    .build()))
        .build();
  }
}
