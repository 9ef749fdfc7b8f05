package io.livegate.cdk;

import io.livegate.statemachine.DeployFlow;
import io.livegate.statemachine.RuntimeContract;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import software.amazon.awscdk.Aws;
import software.amazon.awscdk.Duration;
import software.amazon.awscdk.IgnoreMode;
import software.amazon.awscdk.RemovalPolicy;
import software.amazon.awscdk.Stack;
import software.amazon.awscdk.services.ecr.Repository;
import software.amazon.awscdk.services.ecr.RepositoryAttributes;
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
import software.amazon.awscdk.services.events.Rule;
import software.amazon.awscdk.services.events.Schedule;
import software.amazon.awscdk.services.events.targets.EcsTask;
import software.amazon.awscdk.services.iam.Role;
import software.amazon.awscdk.services.iam.ServicePrincipal;
import software.amazon.awscdk.services.logs.LogGroup;
import software.amazon.awscdk.services.logs.RetentionDays;
import software.amazon.awscdk.services.s3.BlockPublicAccess;
import software.amazon.awscdk.services.s3.Bucket;
import software.amazon.awscdk.services.s3.BucketEncryption;
import software.amazon.awscdk.services.s3.LifecycleRule;
import software.amazon.awscdk.services.s3.ObjectOwnership;
import software.amazon.awscdk.services.secretsmanager.ISecret;
import software.amazon.awscdk.services.secretsmanager.Secret;
import software.amazon.awscdk.services.ssm.ParameterTier;
import software.amazon.awscdk.services.ssm.StringParameter;
import software.constructs.Construct;

/**
 * The ECS side: a Fargate cluster, one image built from {@code ecs-tasks/Dockerfile} (or the
 * operator's, pinned by digest: {@code taskImage}), and five task definitions, each with its own
 * task role, log group and environment. Plan and Apply are two definitions of terra-run, and
 * pr-plan's dispatch and unit two of pr-plan, so that their roles can differ ({@link Grants} gives
 * each role its actions). Beside them, what only the tasks read or write: the accounts text as an
 * SSM parameter, and the artifact bucket of a deployment's plan files. Like every construct of the
 * stack, it puts its resources in the stack ({@link LivegateStack} says why).
 */
public final class Tasks extends Construct {
  /**
   * The container of create-deploy-stack and the pr-plan tasks, which EcsTasks' overrides name;
   * terra-run's is {@link DeployFlow#TERRA_RUN}.
   */
  public static final String CONTAINER = "livegate-task";

  /** Where terra-run keeps a deployment's plan files in the artifact bucket. */
  public static final String PLANS_PREFIX = "plans/";

  /**
   * @param network the subnets and security group the tasks run in
   * @param metadb what create-deploy-stack and terra-run connect to
   * @param secrets the GitHub token every task reads
   * @param source where the image's build context is
   * @param config the installation: repository, runner, scan, fork pull requests, accounts, plan
   *     retention and the Fargate size
   * @param logRetention every task's log retention
   * @param triggerArn the trigger's live alias, which create-deploy-stack and pr-plan-dispatch
   *     invoke; named, since the trigger is built after the tasks
   */
  public record Props(
      Network network,
      Metadb metadb,
      Secrets secrets,
      SourceTree source,
      LivegateConfig config,
      RetentionDays logRetention,
      String triggerArn) {}

  private final Props props;
  private final Stack stack;
  private final Bucket artifacts;
  private final StringParameter accountsParameter;
  private final Cluster cluster;
  private static final Pattern ECR_IMAGE =
      Pattern.compile(
          "([0-9]{12})\\.dkr\\.ecr\\.([a-z0-9-]+)\\.amazonaws\\.com/([a-z0-9._/-]+)@(sha256:[0-9a-f]{64})");

  private final ContainerImage image;
  private final Map<String, FargateTaskDefinition> definitions = new LinkedHashMap<>();
  private final FargateTaskDefinition createDeployStack;
  private final FargateTaskDefinition prPlanUnit;
  private final FargateTaskDefinition prPlanDispatch;
  private final FargateTaskDefinition terraRunPlan;
  private final FargateTaskDefinition terraRunApply;
  private final Optional<FargateTaskDefinition> drift;
  private final Optional<ISecret> moduleSourcesToken;

  public Tasks(Construct scope, String id, Props props) {
    super(scope, id);
    this.props = props;
    this.stack = Stack.of(this);
    LivegateConfig config = props.config();
    this.artifacts =
        Bucket.Builder.create(stack, "Artifacts")
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
    String accountsText = config.accountsText();
    this.accountsParameter =
        StringParameter.Builder.create(stack, "Accounts")
            .description("livegate accounts (docs/accounts.md), read by the ECS tasks")
            .stringValue(accountsText)
            .tier(parameterTier(accountsText))
            .build();
    this.cluster = Cluster.Builder.create(stack, "Cluster").vpc(props.network().vpc()).build();
    this.image =
        config.taskImage() != null
            ? pinnedImage(stack, config.taskImage())
            : ContainerImage.fromAsset(
                props.source().imageContext().toString(),
                AssetImageProps.builder()
                    .file(SourceTree.DOCKERFILE)
                    .buildArgs(config.tools().buildArgs())
                    .exclude(SourceTree.IMAGE_CONTEXT)
                    .ignoreMode(IgnoreMode.DOCKER)
                    .platform(Platform.LINUX_AMD64)
                    .build());

    // create-deploy-stack scans the merge, stores the deployment and tells the trigger, also when
    // the scan failed ({"scanFailed": id}); the trigger, not the task, hands the merge lock on.
    Map<String, String> createDeployStackEnvironment = commonEnvironment();
    createDeployStackEnvironment.put(RuntimeContract.Engine.RUNNER, config.runner());
    createDeployStackEnvironment.put(RuntimeContract.Tasks.SCAN, config.scan());
    createDeployStackEnvironment.put(RuntimeContract.Tasks.TRIGGER_FUNCTION, props.triggerArn());
    createDeployStackEnvironment.putAll(props.metadb().environment());
    this.createDeployStack =
        task(
            RuntimeContract.TaskFamilies.CREATE_DEPLOY_STACK,
            CONTAINER,
            List.of("create-deploy-stack"),
            createDeployStackEnvironment,
            true);

    // pr-plan unit runs the pull request's code while it plans one unit. Its plan file stays in
    // the task (deleted after the plan); the outcome goes to the commit status and the plan
    // comment.
    this.moduleSourcesToken =
        Optional.ofNullable(config.moduleSourcesTokenSecretArn())
            .map(arn -> Secret.fromSecretCompleteArn(stack, "ModuleSourcesToken", arn));
    Map<String, String> prPlanUnitEnvironment = commonEnvironment();
    prPlanUnitEnvironment.put(RuntimeContract.Engine.RUNNER, config.runner());
    prPlanUnitEnvironment.putAll(moduleSourcesEnvironment());
    this.prPlanUnit =
        task(
            RuntimeContract.TaskFamilies.PR_PLAN_UNIT,
            CONTAINER,
            List.of(
                RuntimeContract.PullRequestPlans.PR_PLAN, RuntimeContract.PullRequestPlans.UNIT),
            prPlanUnitEnvironment,
            true);

    // pr-plan dispatch scans the pull request (reading configs, running none of its code), starts
    // a pr-plan unit per changed unit, and tells the trigger which units the head changes (the
    // merge gate's lock scope "units").
    Map<String, String> prPlanDispatchEnvironment = commonEnvironment();
    prPlanDispatchEnvironment.put(
        RuntimeContract.Tasks.PLAN_FORKS, Boolean.toString(config.allowForkPrs()));
    prPlanDispatchEnvironment.put(RuntimeContract.Tasks.TRIGGER_FUNCTION, props.triggerArn());
    prPlanDispatchEnvironment.putAll(launchEnvironment());
    // The planner's settings require the dispatch's own definition, which the dispatch never
    // starts (nor may it: its role runs pr-plan-unit only). Its ARN would be a reference of the
    // definition to itself, so the family stands in.
    prPlanDispatchEnvironment.put(
        RuntimeContract.PullRequestPlans.TASK_DEFINITION,
        family(RuntimeContract.TaskFamilies.PR_PLAN_DISPATCH));
    prPlanDispatchEnvironment.put(
        RuntimeContract.PullRequestPlans.UNIT_TASK_DEFINITION, prPlanUnit.getTaskDefinitionArn());
    this.prPlanDispatch =
        task(
            RuntimeContract.TaskFamilies.PR_PLAN_DISPATCH,
            CONTAINER,
            List.of(
                RuntimeContract.PullRequestPlans.PR_PLAN,
                RuntimeContract.PullRequestPlans.DISPATCH),
            prPlanDispatchEnvironment,
            true);

    Map<String, String> terraRunEnvironment = commonEnvironment();
    terraRunEnvironment.put(RuntimeContract.Engine.RUNNER, config.runner());
    terraRunEnvironment.put(RuntimeContract.Artifacts.PLAN_BUCKET, artifacts.getBucketName());
    terraRunEnvironment.putAll(props.metadb().environment());
    terraRunEnvironment.putAll(moduleSourcesEnvironment());
    // An apply may outlast one session of the account role: each lasts this long, and the task
    // renews it before it ends.
    terraRunEnvironment.put(
        RuntimeContract.Tasks.ROLE_SESSION_DURATION, config.roleSessionDuration().toString());
    List<String> terraRunCommand = List.of(DeployFlow.TERRA_RUN);
    this.terraRunPlan =
        task(
            RuntimeContract.TaskFamilies.TERRA_RUN_PLAN,
            DeployFlow.TERRA_RUN,
            terraRunCommand,
            terraRunEnvironment,
            false);
    this.terraRunApply =
        task(
            RuntimeContract.TaskFamilies.TERRA_RUN_APPLY,
            DeployFlow.TERRA_RUN,
            terraRunCommand,
            terraRunEnvironment,
            false);

    // drift, on the config's schedule: plans every unit of the trunk's head with the plan roles,
    // reports on the drift issue and mails the voters of the accounts concerned. It applies
    // nothing; it reads the metadb only with driftReconcile, to queue the reconcile and tell the
    // trigger, as create-deploy-stack does.
    this.drift = Optional.ofNullable(config.driftSchedule()).map(this::drift);
  }

  private FargateTaskDefinition drift(String schedule) {
    LivegateConfig config = props.config();
    Map<String, String> environment = commonEnvironment();
    environment.put(RuntimeContract.Engine.RUNNER, config.runner());
    environment.put(RuntimeContract.Approval.MAIL_FROM, config.mailFrom());
    if (config.driftReconcile()) {
      environment.put(RuntimeContract.Tasks.DRIFT_RECONCILE, "true");
      environment.put(RuntimeContract.Tasks.TRIGGER_FUNCTION, props.triggerArn());
      environment.putAll(props.metadb().environment());
    }
    FargateTaskDefinition definition =
        task(
            RuntimeContract.TaskFamilies.DRIFT,
            CONTAINER,
            List.of("drift", "--repository", config.repository(), "--trunk", config.trunk()),
            environment,
            true);
    Rule.Builder.create(stack, "DriftSchedule")
        .description("livegate drift detection")
        .schedule(Schedule.expression(schedule))
        .targets(
            List.of(
                EcsTask.Builder.create()
                    .cluster(cluster)
                    .taskDefinition(definition)
                    .subnetSelection(props.network().privateSubnets())
                    .securityGroups(List.of(props.network().taskSecurityGroup()))
                    .build()))
        .build();
    return definition;
  }

  public Cluster cluster() {
    return cluster;
  }

  /** The bucket of a deployment's plan files, under {@link #PLANS_PREFIX}. */
  public Bucket artifacts() {
    return artifacts;
  }

  /** The accounts text (docs/accounts.md) that create-deploy-stack and pr-plan read. */
  public StringParameter accountsParameter() {
    return accountsParameter;
  }

  /** Every task definition, by task. */
  public Map<String, FargateTaskDefinition> all() {
    return Map.copyOf(definitions);
  }

  public FargateTaskDefinition createDeployStack() {
    return createDeployStack;
  }

  public FargateTaskDefinition prPlanUnit() {
    return prPlanUnit;
  }

  public FargateTaskDefinition prPlanDispatch() {
    return prPlanDispatch;
  }

  public FargateTaskDefinition terraRunPlan() {
    return terraRunPlan;
  }

  public FargateTaskDefinition terraRunApply() {
    return terraRunApply;
  }

  /** The scheduled drift task; empty without a drift schedule. */
  public Optional<FargateTaskDefinition> drift() {
    return drift;
  }

  /** Where and how EcsTasks starts a task: the webhook, the trigger and pr-plan dispatch. */
  public Map<String, String> launchEnvironment() {
    Map<String, String> environment = new LinkedHashMap<>();
    environment.put(RuntimeContract.Ecs.CLUSTER, cluster.getClusterArn());
    environment.put(RuntimeContract.Ecs.SUBNETS, props.network().privateSubnetIds());
    environment.put(
        RuntimeContract.Ecs.SECURITY_GROUPS,
        props.network().taskSecurityGroup().getSecurityGroupId());
    environment.put(RuntimeContract.Ecs.CONTAINER, CONTAINER);
    return environment;
  }

  /**
   * What every task reads: the region, the repository to clone, the GitHub token (or App) and the
   * repository's name, which a GitHub App's tokens are limited to.
   */
  private Map<String, String> commonEnvironment() {
    Map<String, String> environment = new LinkedHashMap<>();
    environment.put("AWS_REGION", Aws.REGION);
    environment.put(RuntimeContract.Tasks.REPO_URL, props.config().repositoryUrl());
    environment.put(
        RuntimeContract.GitHub.TOKEN_SECRET, props.secrets().githubToken().getSecretArn());
    environment.put(RuntimeContract.Webhook.REPOSITORY, props.config().repository());
    return environment;
  }

  /**
   * With {@code moduleSourcesTokenSecretArn}: the token for private module sources, for the tasks
   * that init units (terra-run, pr-plan-unit); git in terraform signs in with it.
   */
  private Map<String, String> moduleSourcesEnvironment() {
    Map<String, String> environment = new LinkedHashMap<>();
    moduleSourcesToken.ifPresent(
        secret -> {
          environment.put(RuntimeContract.Tasks.MODULE_SOURCES_TOKEN_SECRET, secret.getSecretArn());
          environment.put(
              RuntimeContract.Tasks.MODULE_SOURCES_HOST, props.config().moduleSourcesHost());
        });
    return environment;
  }

  /** The token for private module sources, when configured. */
  public Optional<ISecret> moduleSourcesToken() {
    return moduleSourcesToken;
  }

  /** The ECS task definition family of the task {@code name}. */
  private String family(String name) {
    return RuntimeContract.TaskFamilies.family(stack.getStackName(), name);
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
      Map<String, String> environment,
      boolean accounts) {
    String id = pascal(name);
    Role role =
        Role.Builder.create(stack, id + "TaskRole")
            .assumedBy(new ServicePrincipal("ecs-tasks.amazonaws.com"))
            .description("livegate " + name + " task")
            .build();
    FargateTaskDefinition definition =
        FargateTaskDefinition.Builder.create(stack, id + "Task")
            .family(family(name))
            .cpu(props.config().taskCpu())
            .memoryLimitMiB(props.config().taskMemoryMiB())
            .runtimePlatform(
                RuntimePlatform.builder()
                    .operatingSystemFamily(OperatingSystemFamily.LINUX)
                    .cpuArchitecture(CpuArchitecture.X86_64)
                    .build())
            .taskRole(role)
            .build();
    LogGroup logs = LogGroups.create(stack, id + "Logs", props.logRetention());
    // The log group's page: the link of a task that cannot read its own log stream from the
    // container metadata endpoint (aws TaskLogLink), which otherwise links that stream.
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
            .dockerLabels(props.config().tools().labels())
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
    definitions.put(name, definition);
    return definition;
  }

  /**
   * The operator's image, by digest. In a private ECR repository it is referenced through the
   * repository, so every task's execution role may pull it (and only it); elsewhere by its name.
   */
  private static ContainerImage pinnedImage(Stack stack, String image) {
    Matcher ecr = ECR_IMAGE.matcher(image);
    if (!ecr.matches()) {
      return ContainerImage.fromRegistry(image);
    }
    String account = ecr.group(1);
    String region = ecr.group(2);
    String repository = ecr.group(3);
    return ContainerImage.fromEcrRepository(
        Repository.fromRepositoryAttributes(
            stack,
            "TaskImageRepository",
            RepositoryAttributes.builder()
                .repositoryArn(
                    "arn:"
                        + stack.getPartition()
                        + ":ecr:"
                        + region
                        + ":"
                        + account
                        + ":repository/"
                        + repository)
                .repositoryName(repository)
                .build()),
        ecr.group(4));
  }

  private static ParameterTier parameterTier(String text) {
    int bytes = text.getBytes(StandardCharsets.UTF_8).length;
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

  private static String pascal(String name) {
    StringBuilder id = new StringBuilder();
    for (String part : name.split("-")) {
      id.append(Character.toUpperCase(part.charAt(0))).append(part.substring(1));
    }
    return id.toString();
  }
}
