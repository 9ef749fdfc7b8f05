package io.livegate.cdk;

import io.livegate.statemachine.DeployFlow;
import io.livegate.statemachine.RuntimeContract;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import software.amazon.awscdk.Acknowledgment;
import software.amazon.awscdk.Annotations;
import software.amazon.awscdk.ArnComponents;
import software.amazon.awscdk.ArnFormat;
import software.amazon.awscdk.Aws;
import software.amazon.awscdk.CfnOutput;
import software.amazon.awscdk.CustomResource;
import software.amazon.awscdk.Duration;
import software.amazon.awscdk.Fn;
import software.amazon.awscdk.IgnoreMode;
import software.amazon.awscdk.RemovalPolicy;
import software.amazon.awscdk.Stack;
import software.amazon.awscdk.StackProps;
import software.amazon.awscdk.Validations;
import software.amazon.awscdk.services.ec2.IVpc;
import software.amazon.awscdk.services.ec2.Port;
import software.amazon.awscdk.services.ec2.SecurityGroup;
import software.amazon.awscdk.services.ec2.SubnetConfiguration;
import software.amazon.awscdk.services.ec2.SubnetSelection;
import software.amazon.awscdk.services.ec2.SubnetType;
import software.amazon.awscdk.services.ec2.Vpc;
import software.amazon.awscdk.services.ec2.VpcLookupOptions;
import software.amazon.awscdk.services.ecr.assets.Platform;
import software.amazon.awscdk.services.ecs.AssetImageProps;
import software.amazon.awscdk.services.ecs.AwsLogDriverProps;
import software.amazon.awscdk.services.ecs.Cluster;
import software.amazon.awscdk.services.ecs.ContainerDefinitionOptions;
import software.amazon.awscdk.services.ecs.ContainerImage;
import software.amazon.awscdk.services.ecs.CpuArchitecture;
import software.amazon.awscdk.services.ecs.FargateTaskDefinition;
import software.amazon.awscdk.services.ecs.LogDriver;
import software.amazon.awscdk.services.ecs.OperatingSystemFamily;
import software.amazon.awscdk.services.ecs.RuntimePlatform;
import software.amazon.awscdk.services.events.EventPattern;
import software.amazon.awscdk.services.events.Rule;
import software.amazon.awscdk.services.events.targets.LambdaFunction;
import software.amazon.awscdk.services.iam.IRole;
import software.amazon.awscdk.services.iam.PolicyStatement;
import software.amazon.awscdk.services.iam.Role;
import software.amazon.awscdk.services.iam.ServicePrincipal;
import software.amazon.awscdk.services.kms.Alias;
import software.amazon.awscdk.services.lambda.Architecture;
import software.amazon.awscdk.services.lambda.Code;
import software.amazon.awscdk.services.lambda.EventInvokeConfigOptions;
import software.amazon.awscdk.services.lambda.Function;
import software.amazon.awscdk.services.lambda.FunctionUrl;
import software.amazon.awscdk.services.lambda.FunctionUrlAuthType;
import software.amazon.awscdk.services.lambda.FunctionUrlOptions;
import software.amazon.awscdk.services.lambda.Runtime;
import software.amazon.awscdk.services.lambda.SnapStartConf;
import software.amazon.awscdk.services.lambda.destinations.SqsDestination;
import software.amazon.awscdk.services.lambda.eventsources.SnsEventSource;
import software.amazon.awscdk.services.logs.LogGroup;
import software.amazon.awscdk.services.logs.RetentionDays;
import software.amazon.awscdk.services.rds.AuroraPostgresClusterEngineProps;
import software.amazon.awscdk.services.rds.AuroraPostgresEngineVersion;
import software.amazon.awscdk.services.rds.BackupProps;
import software.amazon.awscdk.services.rds.ClusterInstance;
import software.amazon.awscdk.services.rds.Credentials;
import software.amazon.awscdk.services.rds.DatabaseCluster;
import software.amazon.awscdk.services.rds.DatabaseClusterEngine;
import software.amazon.awscdk.services.s3.BlockPublicAccess;
import software.amazon.awscdk.services.s3.Bucket;
import software.amazon.awscdk.services.s3.BucketEncryption;
import software.amazon.awscdk.services.s3.LifecycleRule;
import software.amazon.awscdk.services.s3.ObjectOwnership;
import software.amazon.awscdk.services.secretsmanager.Secret;
import software.amazon.awscdk.services.secretsmanager.SecretStringGenerator;
import software.amazon.awscdk.services.ses.EmailIdentity;
import software.amazon.awscdk.services.ses.Identity;
import software.amazon.awscdk.services.sns.Topic;
import software.amazon.awscdk.services.sqs.Queue;
import software.amazon.awscdk.services.sqs.QueueEncryption;
import software.amazon.awscdk.services.ssm.ParameterTier;
import software.amazon.awscdk.services.ssm.StringParameter;
import software.amazon.awscdk.services.stepfunctions.DefinitionBody;
import software.amazon.awscdk.services.stepfunctions.LogLevel;
import software.amazon.awscdk.services.stepfunctions.LogOptions;
import software.amazon.awscdk.services.stepfunctions.StateMachine;
import software.amazon.awscdk.services.stepfunctions.StateMachineType;
import software.constructs.Construct;

/**
 * livegate in one stack: the network and metadb, the Lambdas, the ECS tasks, the deploy flow, and
 * the grants between them. Each role is its own and gets only the actions its entry point calls, on
 * the resources it calls them on; the tests hold the boundaries (LivegateStackTest).
 */
public final class LivegateStack extends Stack {
  /**
   * The container of create-deploy-stack and the pr-plan tasks, which EcsTasks' overrides name;
   * terra-run's is {@link DeployFlow#TERRA_RUN}.
   */
  static final String TASK_CONTAINER = "livegate-task";

  /** The alias every invoker uses: it points at the published, SnapStart-ed version. */
  static final String LIVE_ALIAS = "live";

  /** The statuses Step Functions reports for a finished execution; the trigger acts on each. */
  static final List<String> FINAL_STATUSES = List.of("SUCCEEDED", "FAILED", "TIMED_OUT", "ABORTED");

  static final String DATABASE = "livegate";

  /** Secret names under the stack's name, e.g. Livegate/webhook-secret. */
  static final String WEBHOOK_SECRET_NAME = "webhook-secret";

  static final String GITHUB_TOKEN_NAME = "github-token";
  static final String PLANS_PREFIX = "plans/";

  private final LivegateConfig config;
  private final RetentionDays retention;
  private final Map<String, IRole> roles = new LinkedHashMap<>();
  private final Map<String, Function> functions = new LinkedHashMap<>();
  private final Map<String, FargateTaskDefinition> tasks = new LinkedHashMap<>();

  private final IVpc vpc;
  private final SubnetSelection privateSubnets =
      SubnetSelection.builder().subnetType(SubnetType.PRIVATE_WITH_EGRESS).build();
  private final SecurityGroup lambdaSecurityGroup;
  private final SecurityGroup taskSecurityGroup;
  private final SecurityGroup metadbSecurityGroup;
  private final DatabaseCluster metadb;
  private final Secret githubToken;
  private final Secret webhookSecret;
  private final Secret voteKey;
  private final Bucket artifacts;
  private final Topic approvalTopic;
  private final EmailIdentity mailFrom;
  private final StringParameter accountsParameter;
  private final String lockParameterArn;
  private final Cluster cluster;
  private final StateMachine deployFlow;
  private final Queue deadLetters;
  private final CustomResource schema;

  public LivegateStack(
      Construct scope, String id, StackProps props, LivegateConfig config, SourceTree source) {
    super(scope, id, props);
    this.config = config;
    this.retention = retention(config.logRetentionDays());

    // Network: a VPC with NAT (GitHub and the AWS APIs are reached from private subnets), or the
    // installation's own, found by id at synth time.
    this.vpc =
        config.vpcId() != null
            ? Vpc.fromLookup(this, "Vpc", VpcLookupOptions.builder().vpcId(config.vpcId()).build())
            : Vpc.Builder.create(this, "Vpc")
                .maxAzs(config.maxAzs())
                .natGateways(config.natGateways())
                .subnetConfiguration(
                    List.of(
                        SubnetConfiguration.builder()
                            .name("public")
                            .subnetType(SubnetType.PUBLIC)
                            .cidrMask(24)
                            .build(),
                        SubnetConfiguration.builder()
                            .name("private")
                            .subnetType(SubnetType.PRIVATE_WITH_EGRESS)
                            .cidrMask(22)
                            .build()))
                .build();
    this.lambdaSecurityGroup = securityGroup("LambdaSecurityGroup", "livegate Lambdas", true);
    this.taskSecurityGroup = securityGroup("TaskSecurityGroup", "livegate ECS tasks", true);
    this.metadbSecurityGroup = securityGroup("MetadbSecurityGroup", "livegate metadb", false);

    // The metadb admits the Lambdas' and the tasks' groups on PostgreSQL's port, nobody else.
    this.metadb =
        DatabaseCluster.Builder.create(this, "Metadb")
            .engine(
                DatabaseClusterEngine.auroraPostgres(
                    AuroraPostgresClusterEngineProps.builder()
                        .version(AuroraPostgresEngineVersion.VER_16_6)
                        .build()))
            .credentials(Credentials.fromGeneratedSecret("livegate"))
            .defaultDatabaseName(DATABASE)
            .writer(ClusterInstance.serverlessV2("Writer"))
            .serverlessV2MinCapacity(config.dbMinCapacity())
            .serverlessV2MaxCapacity(config.dbMaxCapacity())
            .vpc(vpc)
            .vpcSubnets(privateSubnets)
            .securityGroups(List.of(metadbSecurityGroup))
            .storageEncrypted(true)
            .deletionProtection(config.dbDeletionProtection())
            .backup(BackupProps.builder().retention(Duration.days(7)).build())
            .removalPolicy(RemovalPolicy.SNAPSHOT)
            .build();
    for (SecurityGroup client : List.of(lambdaSecurityGroup, taskSecurityGroup)) {
      metadbSecurityGroup.addIngressRule(
          client, Port.tcp(5432), "PostgreSQL from " + client.getNode().getId());
    }

    // Secrets, generated on deploy. The GitHub token's value is a placeholder until the operator
    // puts a real token in (module README).
    this.githubToken =
        secret("GithubToken", GITHUB_TOKEN_NAME, "GitHub token: replace after deploy (README)");
    this.webhookSecret = secret("WebhookSecret", WEBHOOK_SECRET_NAME, "GitHub webhook secret");
    this.voteKey = secret("VoteKey", "vote-link-key", "Key that signs vote links");

    this.artifacts =
        Bucket.Builder.create(this, "Artifacts")
            .encryption(BucketEncryption.S3_MANAGED)
            .blockPublicAccess(BlockPublicAccess.BLOCK_ALL)
            .enforceSsl(true)
            .objectOwnership(ObjectOwnership.BUCKET_OWNER_ENFORCED)
            .lifecycleRules(
                List.of(
                    LifecycleRule.builder()
                        .id("expire-plans")
                        .expiration(Duration.days(config.planRetentionDays()))
                        .abortIncompleteMultipartUploadAfter(Duration.days(1))
                        .build()))
            .removalPolicy(RemovalPolicy.RETAIN)
            .build();

    this.approvalTopic =
        Topic.Builder.create(this, "ApprovalTopic")
            .displayName("livegate approval requests")
            .masterKey(Alias.fromAliasName(this, "SnsKey", "alias/aws/sns"))
            .enforceSsl(true)
            .build();
    this.mailFrom =
        EmailIdentity.Builder.create(this, "MailFrom")
            .identity(Identity.email(config.mailFrom()))
            .build();

    String accountsText = config.accountsText();
    this.accountsParameter =
        StringParameter.Builder.create(this, "Accounts")
            .description("livegate accounts (docs/accounts.md), read by the ECS tasks")
            .stringValue(accountsText)
            .tier(parameterTier(accountsText))
            .build();
    this.lockParameterArn =
        formatArn(
            ArnComponents.builder()
                .service("ssm")
                .resource("parameter")
                .resourceName(config.lockParameterFor(getStackName()).substring(1))
                .build());

    this.cluster = Cluster.Builder.create(this, "Cluster").vpc(vpc).build();
    this.deadLetters =
        Queue.Builder.create(this, "TriggerDeadLetters")
            .encryption(QueueEncryption.SQS_MANAGED)
            .enforceSsl(true)
            .retentionPeriod(Duration.days(14))
            .build();

    // The migration runs first: a custom resource whose property changes with the migrations.
    Function migrate =
        function(
            "Migrate",
            "migrate",
            RuntimeContract.Handlers.MIGRATE,
            1024,
            Duration.minutes(5),
            source,
            metadbEnvironment(),
            false);
    readSecret(migrate.getRole(), metadb.getSecret());
    this.schema =
        CustomResource.Builder.create(this, "MetadbSchema")
            .serviceToken(migrate.getFunctionArn())
            .resourceType("Custom::LivegateMetadbSchema")
            .properties(Map.of("MigrationsHash", source.migrationsHash()))
            .build();
    schema.getNode().addDependency(metadb);
    schema.getNode().addDependency(vpc);

    // ECS: one image, five task definitions. Plan and Apply are two definitions of terra-run, and
    // pr-plan's dispatch and unit two of pr-plan, so that their roles can differ.
    ContainerImage image =
        ContainerImage.fromAsset(
            source.imageContext().toString(),
            AssetImageProps.builder()
                .file(SourceTree.DOCKERFILE)
                .exclude(SourceTree.IMAGE_CONTEXT)
                .ignoreMode(IgnoreMode.DOCKER)
                .platform(Platform.LINUX_AMD64)
                .build());
    String triggerName = getStackName() + "-trigger";
    String triggerArn =
        formatArn(
            ArnComponents.builder()
                .service("lambda")
                .resource("function")
                .resourceName(triggerName + ":" + LIVE_ALIAS)
                .arnFormat(ArnFormat.COLON_RESOURCE_NAME)
                .build());

    // create-deploy-stack scans the merge, stores the deployment and tells the trigger, also when
    // the scan failed ({"scanFailed": id}); the trigger, not the task, hands the merge lock on.
    Map<String, String> createDeployStackEnvironment = taskEnvironment();
    createDeployStackEnvironment.put(RuntimeContract.Engine.RUNNER, config.runner());
    createDeployStackEnvironment.put(RuntimeContract.Tasks.SCAN, config.scan());
    createDeployStackEnvironment.put(RuntimeContract.Tasks.TRIGGER_FUNCTION, triggerArn);
    createDeployStackEnvironment.putAll(metadbEnvironment());
    FargateTaskDefinition createDeployStack =
        task(
            "create-deploy-stack",
            TASK_CONTAINER,
            List.of("create-deploy-stack"),
            image,
            createDeployStackEnvironment,
            true);
    IRole createDeployStackRole = createDeployStack.getTaskRole();
    readSecret(createDeployStackRole, metadb.getSecret());
    readSecret(createDeployStackRole, githubToken);
    allow(createDeployStackRole, List.of("lambda:InvokeFunction"), List.of(triggerArn));
    if (config.scan().equals("plan")) {
      assume(createDeployStackRole, config.planRoleArns());
    }

    // pr-plan unit runs the pull request's code while it plans one unit: it may assume the plan
    // roles and nothing else, and cannot start tasks. Its plan file stays in the task (deleted
    // after the plan); the outcome goes to the commit status and the plan comment.
    Map<String, String> prPlanUnitEnvironment = taskEnvironment();
    prPlanUnitEnvironment.put(RuntimeContract.Engine.RUNNER, config.runner());
    FargateTaskDefinition prPlanUnit =
        task(
            "pr-plan-unit",
            TASK_CONTAINER,
            List.of(
                RuntimeContract.PullRequestPlans.PR_PLAN, RuntimeContract.PullRequestPlans.UNIT),
            image,
            prPlanUnitEnvironment,
            true);
    readSecret(prPlanUnit.getTaskRole(), githubToken);
    assume(prPlanUnit.getTaskRole(), config.planRoleArns());

    // pr-plan dispatch scans the pull request (reading configs, running none of its code), starts
    // a pr-plan unit per changed unit, and tells the trigger which units the head changes (the
    // merge gate's lock scope "units"): it may start that task and invoke the trigger, and assumes
    // no role.
    Map<String, String> prPlanDispatchEnvironment = taskEnvironment();
    prPlanDispatchEnvironment.put(
        RuntimeContract.Tasks.PLAN_FORKS, Boolean.toString(config.allowForkPrs()));
    prPlanDispatchEnvironment.put(RuntimeContract.Tasks.TRIGGER_FUNCTION, triggerArn);
    prPlanDispatchEnvironment.putAll(ecsEnvironment());
    // The planner's settings require the dispatch's own definition, which the dispatch never
    // starts (nor may it: its role runs pr-plan-unit only). Its ARN would be a reference of the
    // definition to itself, so the family stands in.
    prPlanDispatchEnvironment.put(
        RuntimeContract.PullRequestPlans.TASK_DEFINITION, family("pr-plan-dispatch"));
    prPlanDispatchEnvironment.put(
        RuntimeContract.PullRequestPlans.UNIT_TASK_DEFINITION, prPlanUnit.getTaskDefinitionArn());
    FargateTaskDefinition prPlanDispatch =
        task(
            "pr-plan-dispatch",
            TASK_CONTAINER,
            List.of(
                RuntimeContract.PullRequestPlans.PR_PLAN,
                RuntimeContract.PullRequestPlans.DISPATCH),
            image,
            prPlanDispatchEnvironment,
            true);
    readSecret(prPlanDispatch.getTaskRole(), githubToken);
    runTask(prPlanDispatch.getTaskRole(), prPlanUnit);
    allow(prPlanDispatch.getTaskRole(), List.of("lambda:InvokeFunction"), List.of(triggerArn));

    Map<String, String> terraRunEnvironment = taskEnvironment();
    terraRunEnvironment.put(RuntimeContract.Engine.RUNNER, config.runner());
    terraRunEnvironment.put(RuntimeContract.Artifacts.PLAN_BUCKET, artifacts.getBucketName());
    terraRunEnvironment.putAll(metadbEnvironment());
    List<String> terraRunCommand = List.of(DeployFlow.TERRA_RUN);
    FargateTaskDefinition terraRunPlan =
        task(
            "terra-run-plan",
            DeployFlow.TERRA_RUN,
            terraRunCommand,
            image,
            terraRunEnvironment,
            false);
    FargateTaskDefinition terraRunApply =
        task(
            "terra-run-apply",
            DeployFlow.TERRA_RUN,
            terraRunCommand,
            image,
            terraRunEnvironment,
            false);
    for (FargateTaskDefinition terraRun : List.of(terraRunPlan, terraRunApply)) {
      readSecret(terraRun.getTaskRole(), metadb.getSecret());
      readSecret(terraRun.getTaskRole(), githubToken);
    }
    allow(
        terraRunPlan.getTaskRole(),
        List.of("s3:PutObject"),
        List.of(artifacts.arnForObjects(PLANS_PREFIX + "*")));
    allow(
        terraRunApply.getTaskRole(),
        List.of("s3:GetObject"),
        List.of(artifacts.arnForObjects(PLANS_PREFIX + "*")));
    assume(terraRunPlan.getTaskRole(), config.planRoleArns());
    assume(terraRunApply.getTaskRole(), config.applyRoleArns());

    // The deploy flow, from statemachine/'s ASL with CDK's tokens in its placeholders.
    Map<DeployFlow.Substitution, String> substitutions =
        new EnumMap<>(DeployFlow.Substitution.class);
    substitutions.put(DeployFlow.Substitution.CLUSTER_ARN, cluster.getClusterArn());
    substitutions.put(
        DeployFlow.Substitution.TERRA_RUN_PLAN_TASK_DEFINITION_ARN,
        terraRunPlan.getTaskDefinitionArn());
    substitutions.put(
        DeployFlow.Substitution.TERRA_RUN_APPLY_TASK_DEFINITION_ARN,
        terraRunApply.getTaskDefinitionArn());
    substitutions.put(DeployFlow.Substitution.TERRA_RUN_CONTAINER_NAME, DeployFlow.TERRA_RUN);
    substitutions.put(DeployFlow.Substitution.SUBNET_IDS, subnetIds());
    substitutions.put(
        DeployFlow.Substitution.SECURITY_GROUP_IDS, taskSecurityGroup.getSecurityGroupId());
    substitutions.put(DeployFlow.Substitution.APPROVAL_TOPIC_ARN, approvalTopic.getTopicArn());
    LogGroup flowLogs = logGroup("DeployFlowLogs");
    this.deployFlow =
        StateMachine.Builder.create(this, "DeployFlow")
            .stateMachineType(StateMachineType.STANDARD)
            .definitionBody(
                DefinitionBody.fromString(
                    DeployFlow.render(substitutions, config.flowTimeout().toSeconds())))
            .logs(
                LogOptions.builder()
                    .destination(flowLogs)
                    .level(LogLevel.ALL)
                    .includeExecutionData(false)
                    .build())
            .build();
    roles.put("deploy-flow", deployFlow.getRole());
    runTask(deployFlow.getRole(), terraRunPlan);
    runTask(deployFlow.getRole(), terraRunApply);
    deployFlow.addToRolePolicy(
        statement(
            List.of("ecs:StopTask", "ecs:DescribeTasks"),
            List.of(
                formatArn(
                    ArnComponents.builder()
                        .service("ecs")
                        .resource("task")
                        .resourceName(cluster.getClusterName() + "/*")
                        .build()))));
    // runTask.sync watches the task through this managed rule, which Step Functions creates.
    deployFlow.addToRolePolicy(
        statement(
            List.of("events:PutTargets", "events:PutRule", "events:DescribeRule"),
            List.of(
                formatArn(
                    ArnComponents.builder()
                        .service("events")
                        .resource("rule")
                        .resourceName("StepFunctionsGetEventsForECSTaskRule")
                        .build()))));
    deployFlow.addToRolePolicy(
        statement(List.of("sns:Publish"), List.of(approvalTopic.getTopicArn())));
    deployFlow.grantTaskResponse(terraRunPlan.getTaskRole());

    // approval-response first: its Function URL is the vote links' base.
    Map<String, String> responseEnvironment = metadbEnvironment();
    responseEnvironment.put(RuntimeContract.Approval.VOTE_KEY_SECRET, voteKey.getSecretArn());
    responseEnvironment.put(RuntimeContract.Artifacts.PLAN_BUCKET, artifacts.getBucketName());
    responseEnvironment.put(
        RuntimeContract.Engine.APPROVAL_TIMEOUT, config.approvalTimeout().toString());
    Function approvalResponse =
        function(
            "ApprovalResponse",
            "approval-response",
            RuntimeContract.Handlers.APPROVAL_RESPONSE,
            1024,
            Duration.seconds(15),
            source,
            responseEnvironment,
            true);
    readSecret(approvalResponse.getRole(), metadb.getSecret());
    readSecret(approvalResponse.getRole(), voteKey);
    allow(
        approvalResponse.getRole(),
        List.of("s3:GetObject"),
        List.of(artifacts.arnForObjects(PLANS_PREFIX + "*")));
    deployFlow.grantTaskResponse(approvalResponse.getRole());
    FunctionUrl voteUrl =
        live(approvalResponse)
            .addFunctionUrl(
                FunctionUrlOptions.builder().authType(FunctionUrlAuthType.NONE).build());
    // The URL ends in "/"; the vote links want the base without it: https://<host>.
    String voteBaseUrl = "https://" + Fn.select(2, Fn.split("/", voteUrl.getUrl()));

    Map<String, String> requestEnvironment = metadbEnvironment();
    requestEnvironment.put(RuntimeContract.Approval.VOTE_KEY_SECRET, voteKey.getSecretArn());
    requestEnvironment.put(RuntimeContract.Approval.VOTE_BASE_URL, voteBaseUrl);
    requestEnvironment.put(RuntimeContract.Approval.MAIL_FROM, config.mailFrom());
    requestEnvironment.put(
        RuntimeContract.Approval.SKIP_EMPTY, Boolean.toString(config.skipEmpty()));
    requestEnvironment.put(
        RuntimeContract.Engine.APPROVAL_TIMEOUT, config.approvalTimeout().toString());
    Function approvalRequest =
        function(
            "ApprovalRequest",
            "approval-request",
            RuntimeContract.Handlers.APPROVAL_REQUEST,
            1024,
            Duration.seconds(60),
            source,
            requestEnvironment,
            true);
    readSecret(approvalRequest.getRole(), metadb.getSecret());
    readSecret(approvalRequest.getRole(), voteKey);
    mailFrom.grantSendEmail(approvalRequest.getRole());
    deployFlow.grantTaskResponse(approvalRequest.getRole());
    software.amazon.awscdk.services.lambda.Alias approvalRequestLive = live(approvalRequest);
    approvalRequestLive.addEventSource(new SnsEventSource(approvalTopic));
    // SNS's lambda protocol takes any function ARN, an alias's included; the alias is what runs
    // the SnapStart-ed version.
    Validations.of(approvalRequestLive)
        .acknowledge(
            Acknowledgment.builder()
                .id("CloudFormation-Validate::W3694")
                .reason("SNS delivers to the function's live alias")
                .build());

    Map<String, String> triggerEnvironment = engineEnvironment(createDeployStack);
    Function trigger =
        function(
            "Trigger",
            "trigger",
            RuntimeContract.Handlers.TRIGGER,
            1024,
            Duration.seconds(60),
            source,
            triggerEnvironment,
            true);
    readSecret(trigger.getRole(), metadb.getSecret());
    readSecret(trigger.getRole(), githubToken);
    deployFlow.grantStartExecution(trigger.getRole());
    deployFlow.grantExecution(trigger.getRole(), "states:StopExecution");
    lock(trigger.getRole(), "ssm:GetParameter", "ssm:PutParameter", "ssm:DeleteParameter");
    runTask(trigger.getRole(), createDeployStack);
    software.amazon.awscdk.services.lambda.Alias triggerLive = live(trigger);
    // Function errors of EventBridge's asynchronous invocations end up in the same queue as
    // events EventBridge could not deliver.
    triggerLive.configureAsyncInvoke(
        EventInvokeConfigOptions.builder()
            .retryAttempts(2)
            .maxEventAge(Duration.hours(6))
            .onFailure(new SqsDestination(deadLetters))
            .build());
    Rule.Builder.create(this, "FlowStatusChanges")
        .description("Deploy-flow executions that finished, for the trigger")
        .eventPattern(
            EventPattern.builder()
                .source(List.of("aws.states"))
                .detailType(List.of(RuntimeContract.Events.STATUS_CHANGE))
                .detail(
                    Map.of(
                        "stateMachineArn",
                        List.of(deployFlow.getStateMachineArn()),
                        "status",
                        FINAL_STATUSES))
                .build())
        .targets(
            List.of(
                LambdaFunction.Builder.create(triggerLive)
                    .deadLetterQueue(deadLetters)
                    .retryAttempts(20)
                    .maxEventAge(Duration.hours(24))
                    .build()))
        .build();

    // The webhook drives the engine too: a merge queues its deployment and, when the lock is free,
    // takes the lock and starts its create-deploy-stack, or the flows of a deployment whose stack
    // is already stored. It takes the lock but never releases it (the trigger does).
    Map<String, String> webhookEnvironment = engineEnvironment(createDeployStack);
    webhookEnvironment.put(RuntimeContract.Webhook.WEBHOOK_SECRET, webhookSecret.getSecretArn());
    webhookEnvironment.put(RuntimeContract.Webhook.REPOSITORY, config.repository());
    webhookEnvironment.put(RuntimeContract.Webhook.TRUNK, config.trunk());
    webhookEnvironment.put(
        RuntimeContract.Webhook.ALLOW_FORK_PRS, Boolean.toString(config.allowForkPrs()));
    webhookEnvironment.put(
        RuntimeContract.PullRequestPlans.TASK_DEFINITION, prPlanDispatch.getTaskDefinitionArn());
    Function webhook =
        function(
            "Webhook",
            "webhook",
            RuntimeContract.Handlers.WEBHOOK,
            1024,
            Duration.seconds(10),
            source,
            webhookEnvironment,
            true);
    readSecret(webhook.getRole(), metadb.getSecret());
    readSecret(webhook.getRole(), webhookSecret);
    readSecret(webhook.getRole(), githubToken);
    lock(webhook.getRole(), "ssm:GetParameter", "ssm:PutParameter");
    deployFlow.grantStartExecution(webhook.getRole());
    runTask(webhook.getRole(), createDeployStack);
    runTask(webhook.getRole(), prPlanDispatch);
    FunctionUrl webhookUrl =
        live(webhook)
            .addFunctionUrl(
                FunctionUrlOptions.builder().authType(FunctionUrlAuthType.NONE).build());

    CfnOutput.Builder.create(this, "WebhookUrl")
        .description("GitHub webhook payload URL (content type application/json)")
        .value(webhookUrl.getUrl())
        .build();
    CfnOutput.Builder.create(this, "WebhookSecretName")
        .description("Secrets Manager secret whose value is the GitHub webhook's secret")
        .value(getStackName() + "/" + WEBHOOK_SECRET_NAME)
        .build();
    CfnOutput.Builder.create(this, "GithubTokenSecretName")
        .description("Secrets Manager secret to put the GitHub token in")
        .value(getStackName() + "/" + GITHUB_TOKEN_NAME)
        .build();
    CfnOutput.Builder.create(this, "VoteBaseUrl")
        .description("Base of the vote links in approval mail")
        .value(voteBaseUrl)
        .build();
    CfnOutput.Builder.create(this, "DeadLetterQueueUrl")
        .description("Trigger events that failed; inspect and redrive")
        .value(deadLetters.getQueueUrl())
        .build();
  }

  /** Every role the stack creates for an entry point, by entry point. */
  public Map<String, IRole> roles() {
    return Map.copyOf(roles);
  }

  /** The Lambda functions, by entry point. */
  public Map<String, Function> functions() {
    return Map.copyOf(functions);
  }

  /** The ECS task definitions, by task. */
  public Map<String, FargateTaskDefinition> tasks() {
    return Map.copyOf(tasks);
  }

  public Cluster cluster() {
    return cluster;
  }

  public DatabaseCluster metadb() {
    return metadb;
  }

  public Secret githubToken() {
    return githubToken;
  }

  public Secret webhookSecret() {
    return webhookSecret;
  }

  public Secret voteKey() {
    return voteKey;
  }

  public Bucket artifacts() {
    return artifacts;
  }

  public EmailIdentity mailFrom() {
    return mailFrom;
  }

  public Topic approvalTopic() {
    return approvalTopic;
  }

  public StateMachine deployFlow() {
    return deployFlow;
  }

  public SecurityGroup lambdaSecurityGroup() {
    return lambdaSecurityGroup;
  }

  public SecurityGroup taskSecurityGroup() {
    return taskSecurityGroup;
  }

  public SecurityGroup metadbSecurityGroup() {
    return metadbSecurityGroup;
  }

  public StringParameter accountsParameter() {
    return accountsParameter;
  }

  public String lockParameterArn() {
    return lockParameterArn;
  }

  public CustomResource schema() {
    return schema;
  }

  public Queue deadLetters() {
    return deadLetters;
  }

  private SecurityGroup securityGroup(String id, String description, boolean outbound) {
    return SecurityGroup.Builder.create(this, id)
        .vpc(vpc)
        .description(description)
        .allowAllOutbound(outbound)
        .build();
  }

  private Secret secret(String id, String name, String description) {
    return Secret.Builder.create(this, id)
        .secretName(getStackName() + "/" + name)
        .description("livegate: " + description)
        .generateSecretString(
            SecretStringGenerator.builder().passwordLength(64).excludePunctuation(true).build())
        .build();
  }

  private LogGroup logGroup(String id) {
    return LogGroup.Builder.create(this, id)
        .retention(retention)
        .removalPolicy(RemovalPolicy.DESTROY)
        .build();
  }

  private Map<String, String> metadbEnvironment() {
    Map<String, String> environment = new LinkedHashMap<>();
    environment.put(
        RuntimeContract.Metadb.URL,
        "jdbc:postgresql://"
            + metadb.getClusterEndpoint().getSocketAddress()
            + "/"
            + DATABASE
            + "?sslmode=require");
    environment.put(RuntimeContract.Metadb.SECRET, metadb.getSecret().getSecretArn());
    return environment;
  }

  private String subnetIds() {
    return Fn.join(",", vpc.selectSubnets(privateSubnets).getSubnetIds());
  }

  /** Where and how EcsTasks starts a task: the webhook, the trigger and pr-plan dispatch. */
  private Map<String, String> ecsEnvironment() {
    Map<String, String> environment = new LinkedHashMap<>();
    environment.put(RuntimeContract.Ecs.CLUSTER, cluster.getClusterArn());
    environment.put(RuntimeContract.Ecs.SUBNETS, subnetIds());
    environment.put(RuntimeContract.Ecs.SECURITY_GROUPS, taskSecurityGroup.getSecurityGroupId());
    environment.put(RuntimeContract.Ecs.CONTAINER, TASK_CONTAINER);
    return environment;
  }

  /**
   * What AwsEngine reads, which the webhook and the trigger both build: the metadb, the deploy
   * flow, the merge lock, create-deploy-stack on ECS and the GitHub token.
   */
  private Map<String, String> engineEnvironment(FargateTaskDefinition createDeployStack) {
    Map<String, String> environment = metadbEnvironment();
    environment.put(RuntimeContract.Engine.STATE_MACHINE, deployFlow.getStateMachineArn());
    environment.put(RuntimeContract.Engine.LOCK_PARAMETER, config.lockParameterFor(getStackName()));
    environment.put(RuntimeContract.Engine.LOCK_SCOPE, config.lockScope());
    environment.put(RuntimeContract.Engine.APPROVAL_TIMEOUT, config.approvalTimeout().toString());
    environment.put(RuntimeContract.Engine.FAILURE_POLICY, config.failurePolicy());
    environment.put(RuntimeContract.Engine.RUNNER, config.runner());
    environment.putAll(ecsEnvironment());
    environment.put(RuntimeContract.Scan.TASK_DEFINITION, createDeployStack.getTaskDefinitionArn());
    environment.put(RuntimeContract.GitHub.TOKEN_SECRET, githubToken.getSecretArn());
    return environment;
  }

  /** What every task reads: the region, the repository to clone and the GitHub token. */
  private Map<String, String> taskEnvironment() {
    Map<String, String> environment = new LinkedHashMap<>();
    environment.put("AWS_REGION", Aws.REGION);
    environment.put(RuntimeContract.Tasks.REPO_URL, config.repositoryUrl());
    environment.put(RuntimeContract.GitHub.TOKEN_SECRET, githubToken.getSecretArn());
    return environment;
  }

  /** The ECS task definition family of the task {@code name}. */
  private String family(String name) {
    return getStackName() + "-" + name;
  }

  /**
   * A Fargate task definition with its own task role, log group and container.
   *
   * @param command the container's default command; who starts the task overrides it with the full
   *     argv
   * @param accounts whether the container gets the accounts text ({@code LIVEGATE_ACCOUNTS}) from
   *     the SSM parameter; the execution role, not the task role, reads it
   */
  private FargateTaskDefinition task(
      String name,
      String container,
      List<String> command,
      ContainerImage image,
      Map<String, String> environment,
      boolean accounts) {
    String id = pascal(name);
    Role role =
        Role.Builder.create(this, id + "TaskRole")
            .assumedBy(new ServicePrincipal("ecs-tasks.amazonaws.com"))
            .description("livegate " + name + " task")
            .build();
    roles.put(name, role);
    FargateTaskDefinition definition =
        FargateTaskDefinition.Builder.create(this, id + "Task")
            .family(family(name))
            .cpu(config.taskCpu())
            .memoryLimitMiB(config.taskMemoryMiB())
            .runtimePlatform(
                RuntimePlatform.builder()
                    .operatingSystemFamily(OperatingSystemFamily.LINUX)
                    .cpuArchitecture(CpuArchitecture.X86_64)
                    .build())
            .taskRole(role)
            .build();
    LogGroup logs = logGroup(id + "Logs");
    Map<String, String> withLog = new LinkedHashMap<>(environment);
    withLog.put(
        RuntimeContract.Tasks.LOG_URL,
        "https://console.aws.amazon.com/cloudwatch/home?region="
            + Aws.REGION
            + "#logsV2:log-groups/log-group/"
            + logs.getLogGroupName());
    ContainerDefinitionOptions.Builder options =
        ContainerDefinitionOptions.builder()
            .image(image)
            .essential(true)
            .command(command)
            .environment(withLog)
            .logging(
                LogDriver.awsLogs(
                    AwsLogDriverProps.builder().logGroup(logs).streamPrefix(name).build()));
    if (accounts) {
      options.secrets(
          Map.of(
              RuntimeContract.Tasks.ACCOUNTS,
              software.amazon.awscdk.services.ecs.Secret.fromSsmParameter(accountsParameter)));
    }
    definition.addContainer(container, options.build());
    tasks.put(name, definition);
    return definition;
  }

  /**
   * A Java 25 function in the VPC, with its own role and log group.
   *
   * @param snapStart whether published versions are SnapStart-ed; the migration runs once per
   *     deploy and gains nothing from a snapshot
   */
  private Function function(
      String id,
      String name,
      String handler,
      int memoryMiB,
      Duration timeout,
      SourceTree source,
      Map<String, String> environment,
      boolean snapStart) {
    LogGroup logs = logGroup(id + "Logs");
    Role role =
        Role.Builder.create(this, id + "Role")
            .assumedBy(new ServicePrincipal("lambda.amazonaws.com"))
            .description("livegate " + name + " Lambda")
            .build();
    roles.put(name, role);
    allow(
        role, List.of("logs:CreateLogStream", "logs:PutLogEvents"), List.of(logs.getLogGroupArn()));
    // A function in a VPC reaches it through network interfaces Lambda manages with these
    // actions, which EC2 grants on no narrower resource.
    allow(
        role,
        List.of(
            "ec2:CreateNetworkInterface",
            "ec2:DescribeNetworkInterfaces",
            "ec2:DescribeSubnets",
            "ec2:DeleteNetworkInterface",
            "ec2:AssignPrivateIpAddresses",
            "ec2:UnassignPrivateIpAddresses"),
        List.of("*"));
    Function.Builder builder =
        Function.Builder.create(this, id)
            .description("livegate " + name)
            .runtime(Runtime.JAVA_25)
            .architecture(Architecture.ARM_64)
            .handler(handler)
            .code(Code.fromAsset(source.lambdaJar().toString()))
            .memorySize(memoryMiB)
            .timeout(timeout)
            .environment(environment)
            .role(role)
            .logGroup(logs)
            .vpc(vpc)
            .vpcSubnets(privateSubnets)
            .securityGroups(List.of(lambdaSecurityGroup));
    if (name.equals("trigger")) {
      builder.functionName(getStackName() + "-trigger");
    }
    if (snapStart) {
      builder.snapStart(SnapStartConf.ON_PUBLISHED_VERSIONS);
    }
    Function function = builder.build();
    if (snapStart) {
      // CDK warns that SnapStart needs published versions: live() publishes one per change.
      Annotations.of(function)
          .acknowledgeWarning(
              "@aws-cdk/aws-lambda:snapStartRequirePublish",
              "the live alias points at the function's current published version");
    }
    functions.put(name, function);
    return function;
  }

  /** The function's "live" alias on its current version, created once. */
  private software.amazon.awscdk.services.lambda.Alias live(Function function) {
    software.amazon.awscdk.services.lambda.Alias existing =
        (software.amazon.awscdk.services.lambda.Alias) function.getNode().tryFindChild("LiveAlias");
    if (existing != null) {
      return existing;
    }
    software.amazon.awscdk.services.lambda.Alias alias =
        software.amazon.awscdk.services.lambda.Alias.Builder.create(function, "LiveAlias")
            .aliasName(LIVE_ALIAS)
            .version(function.getCurrentVersion())
            .build();
    // New code goes live only after the schema it expects is migrated.
    alias.getNode().addDependency(schema);
    return alias;
  }

  private void readSecret(
      IRole role, software.amazon.awscdk.services.secretsmanager.ISecret secret) {
    allow(role, List.of("secretsmanager:GetSecretValue"), List.of(secret.getSecretArn()));
  }

  private void lock(IRole role, String... actions) {
    allow(role, List.of(actions), List.of(lockParameterArn));
  }

  private static void assume(IRole role, List<String> roleArns) {
    allow(role, List.of("sts:AssumeRole"), roleArns);
  }

  /** ecs:RunTask of {@code task}'s family in this cluster, and passing its two roles to ECS. */
  private void runTask(IRole role, FargateTaskDefinition task) {
    role.addToPrincipalPolicy(
        PolicyStatement.Builder.create()
            .actions(List.of("ecs:RunTask"))
            .resources(
                List.of(
                    formatArn(
                        ArnComponents.builder()
                            .service("ecs")
                            .resource("task-definition")
                            .resourceName(task.getFamily() + ":*")
                            .build())))
            .conditions(Map.of("ArnEquals", Map.of("ecs:cluster", cluster.getClusterArn())))
            .build());
    role.addToPrincipalPolicy(
        PolicyStatement.Builder.create()
            .actions(List.of("iam:PassRole"))
            .resources(
                List.of(task.getTaskRole().getRoleArn(), task.obtainExecutionRole().getRoleArn()))
            .conditions(
                Map.of("StringEquals", Map.of("iam:PassedToService", "ecs-tasks.amazonaws.com")))
            .build());
  }

  private static void allow(IRole role, List<String> actions, List<String> resources) {
    role.addToPrincipalPolicy(statement(actions, resources));
  }

  private static PolicyStatement statement(List<String> actions, List<String> resources) {
    return PolicyStatement.Builder.create().actions(actions).resources(resources).build();
  }

  private static ParameterTier parameterTier(String text) {
    int bytes = text.getBytes(java.nio.charset.StandardCharsets.UTF_8).length;
    if (bytes <= 4096) {
      return ParameterTier.STANDARD;
    }
    if (bytes <= 8192) {
      return ParameterTier.ADVANCED;
    }
    throw new InvalidLivegateConfig(
        "the accounts text is "
            + bytes
            + " bytes; an SSM parameter holds at most 8192. Use fewer voters or shorter names.");
  }

  private static RetentionDays retention(int days) {
    String name = LivegateConfig.RETENTION_DAYS.get(days);
    if (name == null) {
      throw new InvalidLivegateConfig(
          "logRetentionDays " + days + " is not a CloudWatch retention");
    }
    return RetentionDays.valueOf(name);
  }

  private static String pascal(String name) {
    StringBuilder id = new StringBuilder();
    for (String part : name.split("-")) {
      id.append(Character.toUpperCase(part.charAt(0))).append(part.substring(1));
    }
    return id.toString();
  }
}
