package io.livegate.cdk;

import java.util.LinkedHashMap;
import java.util.Map;
import software.amazon.awscdk.CfnOutput;
import software.amazon.awscdk.CustomResource;
import software.amazon.awscdk.Stack;
import software.amazon.awscdk.StackProps;
import software.amazon.awscdk.services.ec2.SecurityGroup;
import software.amazon.awscdk.services.ecs.Cluster;
import software.amazon.awscdk.services.ecs.FargateTaskDefinition;
import software.amazon.awscdk.services.iam.IRole;
import software.amazon.awscdk.services.lambda.Function;
import software.amazon.awscdk.services.logs.RetentionDays;
import software.amazon.awscdk.services.rds.DatabaseCluster;
import software.amazon.awscdk.services.s3.Bucket;
import software.amazon.awscdk.services.secretsmanager.Secret;
import software.amazon.awscdk.services.ses.EmailIdentity;
import software.amazon.awscdk.services.sns.Topic;
import software.amazon.awscdk.services.sqs.Queue;
import software.amazon.awscdk.services.ssm.StringParameter;
import software.amazon.awscdk.services.stepfunctions.StateMachine;
import software.constructs.Construct;

/**
 * livegate in one stack, composed of one construct per concern: the {@link Network}, the {@link
 * Metadb} with its migration, the {@link Secrets}, the ECS {@link Tasks}, the deploy {@link Flow},
 * the Lambda {@link Functions}, the {@link Grants} between them, and the {@link Alarms} that page
 * the operators. Each role is its own and gets only the actions its entry point calls, on the
 * resources it calls them on; the tests hold the boundaries (IamBoundariesTest).
 *
 * <p>Each construct creates its resources in this stack, not under itself, and its own node holds
 * nothing. CloudFormation knows a resource by its logical ID, which CDK derives from the construct
 * path: under {@code Livegate/metadb/} the cluster would get a new logical ID, and an update would
 * replace it with an empty one, and the VPC, the roles and every other resource likewise. With the
 * resources where they have always been, the template of an installation stays the same.
 */
public final class LivegateStack extends Stack {
  private final Network network;
  private final Metadb metadb;
  private final Secrets secrets;
  private final Tasks tasks;
  private final Flow flow;
  private final Functions functions;
  private final Alarms alarms;

  public LivegateStack(
      Construct scope, String id, StackProps props, LivegateConfig config, SourceTree source) {
    super(scope, id, props);
    RetentionDays logRetention = LogGroups.retention(config.logRetentionDays());
    this.network =
        new Network(
            this,
            "network",
            new Network.Props(
                config.vpcId(), config.maxAzs(), config.natGateways(), config.vpcEndpoints()));
    FunctionFactory functionFactory = new FunctionFactory(this, network, source, logRetention);
    this.metadb =
        new Metadb(
            this,
            "metadb",
            new Metadb.Props(
                network,
                functionFactory,
                source.migrationsHash(),
                config.dbMinCapacity(),
                config.dbMaxCapacity(),
                config.dbDeletionProtection()));
    this.secrets = new Secrets(this, "secrets");
    String triggerArn = Functions.triggerLiveArn(this);
    this.tasks =
        new Tasks(
            this,
            "tasks",
            new Tasks.Props(network, metadb, secrets, source, config, logRetention, triggerArn));
    this.flow =
        new Flow(this, "flow", new Flow.Props(network, tasks, config.flowTimeout(), logRetention));
    Mail mail = new Mail(this, "mail", new Mail.Props(config.mailFrom(), config.mailDomain()));
    this.functions =
        new Functions(
            this,
            "functions",
            new Functions.Props(
                metadb, secrets, tasks, flow, functionFactory, config, mail.identity()));
    new Grants(
        this,
        "grants",
        new Grants.Props(
            metadb,
            secrets,
            tasks,
            flow,
            functions,
            triggerArn,
            config.planRoleArns(),
            config.applyRoleArns(),
            config.scan().equals("plan"),
            config.driftReconcile()));
    // After Grants, so that the dead-letter queue's grant ends the trigger's policy, where it has
    // always been.
    flow.sendStatusChangesTo(functions.triggerLive());
    flow.sendStoppedTasksTo(functions.triggerLive(), tasks.cluster().getClusterArn());
    flow.sendWatchdogTicksTo(functions.triggerLive());
    this.alarms =
        new Alarms(
            this,
            "alarms",
            new Alarms.Props(
                config.alarmEmails(),
                flow.deadLetters(),
                flow.approvalDeadLetters(),
                flow.stateMachine(),
                functions(),
                Functions.metricNamespace(this),
                config.lockAlarmAfter()));
    mail.sendEventsTo(alarms.topic());
    outputs();
  }

  private void outputs() {
    CfnOutput.Builder.create(this, "WebhookUrl")
        .description("GitHub webhook payload URL (content type application/json)")
        .value(functions.webhookUrl().getUrl())
        .build();
    CfnOutput.Builder.create(this, "WebhookSecretName")
        .description("Secrets Manager secret whose value is the GitHub webhook's secret")
        .value(secrets.nameOf(Secrets.WEBHOOK_SECRET))
        .build();
    CfnOutput.Builder.create(this, "GithubTokenSecretName")
        .description("Secrets Manager secret to put the GitHub token in")
        .value(secrets.nameOf(Secrets.GITHUB_TOKEN))
        .build();
    CfnOutput.Builder.create(this, "VoteBaseUrl")
        .description("Base of the vote links in approval mail")
        .value(functions.voteBaseUrl())
        .build();
    // Every account's plan and apply roles must trust these (docs/accounts.md).
    CfnOutput.Builder.create(this, "PlanTaskRoleArn")
        .description("The role terra-run plan runs as; each account's plan role must trust it")
        .value(tasks.terraRunPlan().getTaskRole().getRoleArn())
        .build();
    CfnOutput.Builder.create(this, "PullRequestPlanTaskRoleArn")
        .description("The role pr-plan runs as; each account's plan role must trust it")
        .value(tasks.prPlanUnit().getTaskRole().getRoleArn())
        .build();
    CfnOutput.Builder.create(this, "ApplyTaskRoleArn")
        .description("The role terra-run apply runs as; each account's apply role must trust it")
        .value(tasks.terraRunApply().getTaskRole().getRoleArn())
        .build();
    CfnOutput.Builder.create(this, "AdminFunctionName")
        .description(
            "The admin Lambda: livegate admin --aws --function NAME (docs/operations.md); callers"
                + " need lambda:InvokeFunction on it")
        .value(functions.admin().getFunctionName())
        .build();
    CfnOutput.Builder.create(this, "DeadLetterQueueUrl")
        .description("Trigger events that failed; inspect and redrive")
        .value(flow.deadLetters().getQueueUrl())
        .build();
    CfnOutput.Builder.create(this, "ApprovalDeadLetterQueueUrl")
        .description("Approval requests that failed; inspect and redrive")
        .value(flow.approvalDeadLetters().getQueueUrl())
        .build();
    CfnOutput.Builder.create(this, "OperatorTopicArn")
        .description("The topic every alarm notifies; subscribe operators or chat to it")
        .value(alarms.topic().getTopicArn())
        .build();
  }

  /** Every role the stack creates for an entry point, by entry point. */
  public Map<String, IRole> roles() {
    Map<String, IRole> roles = new LinkedHashMap<>();
    functions().forEach((name, function) -> roles.put(name, function.getRole()));
    tasks().forEach((name, task) -> roles.put(name, task.getTaskRole()));
    roles.put("deploy-flow", flow.stateMachine().getRole());
    return Map.copyOf(roles);
  }

  /** The Lambda functions, by entry point. */
  public Map<String, Function> functions() {
    Map<String, Function> all = new LinkedHashMap<>(functions.all());
    all.put("migrate", metadb.migrate());
    return Map.copyOf(all);
  }

  /** The ECS task definitions, by task. */
  public Map<String, FargateTaskDefinition> tasks() {
    return tasks.all();
  }

  public Cluster cluster() {
    return tasks.cluster();
  }

  public DatabaseCluster metadb() {
    return metadb.cluster();
  }

  public Secret githubToken() {
    return secrets.githubToken();
  }

  public Secret webhookSecret() {
    return secrets.webhookSecret();
  }

  public Secret voteKey() {
    return secrets.voteKey();
  }

  public Bucket artifacts() {
    return tasks.artifacts();
  }

  public EmailIdentity mailFrom() {
    return functions.mailFrom();
  }

  public Topic approvalTopic() {
    return flow.approvalTopic();
  }

  public StateMachine deployFlow() {
    return flow.stateMachine();
  }

  public SecurityGroup lambdaSecurityGroup() {
    return network.lambdaSecurityGroup();
  }

  public SecurityGroup taskSecurityGroup() {
    return network.taskSecurityGroup();
  }

  public SecurityGroup metadbSecurityGroup() {
    return network.metadbSecurityGroup();
  }

  public StringParameter accountsParameter() {
    return tasks.accountsParameter();
  }

  public String lockParameterArn() {
    return functions.lockParameterArn();
  }

  public CustomResource schema() {
    return metadb.schema();
  }

  public Queue deadLetters() {
    return flow.deadLetters();
  }

  public Queue approvalDeadLetters() {
    return flow.approvalDeadLetters();
  }

  public Topic operatorTopic() {
    return alarms.topic();
  }
}
