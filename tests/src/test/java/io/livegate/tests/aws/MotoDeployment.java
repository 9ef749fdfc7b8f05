package io.livegate.tests.aws;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.livegate.aws.AssumedRoleRunner;
import io.livegate.aws.AwsEngine;
import io.livegate.aws.EcsScanLauncher;
import io.livegate.aws.RoleSessions;
import io.livegate.aws.S3ExecutionLogs;
import io.livegate.aws.S3KeptOutputs;
import io.livegate.aws.S3PlanStore;
import io.livegate.aws.SfnFlows;
import io.livegate.aws.SfnHeartbeat;
import io.livegate.aws.SfnTaskTokens;
import io.livegate.aws.SsmMergeLock;
import io.livegate.core.account.Accounts;
import io.livegate.core.deploy.CommitStatusPublisher;
import io.livegate.core.deploy.Deployment;
import io.livegate.core.deploy.DeploymentStatus;
import io.livegate.core.deploy.Execution;
import io.livegate.core.deploy.ExecutionStatus;
import io.livegate.core.deploy.MergedPullRequest;
import io.livegate.core.flow.FlowCallback;
import io.livegate.core.flow.FlowDecision;
import io.livegate.core.flow.FlowState;
import io.livegate.core.runner.Command;
import io.livegate.core.runner.CommandResult;
import io.livegate.core.runner.RunnerArgv;
import io.livegate.core.runner.Sandbox;
import io.livegate.core.testing.RecordingStatuses;
import io.livegate.core.vote.Vote;
import io.livegate.core.vote.VoteDesk;
import io.livegate.core.vote.VoteLinks;
import io.livegate.core.webhook.WebhookSignature;
import io.livegate.lambdas.admin.AdminHandler;
import io.livegate.lambdas.approval.ApprovalRequestHandler;
import io.livegate.lambdas.approval.ApprovalResponseHandler;
import io.livegate.lambdas.approval.ApprovalWiring;
import io.livegate.lambdas.trigger.TriggerHandler;
import io.livegate.lambdas.webhook.WebhookHandler;
import io.livegate.lambdas.webhook.WebhookWiring;
import io.livegate.process.DurableKeptOutputRunner;
import io.livegate.process.LoggedCommandRunner;
import io.livegate.process.ProcessCommandRunner;
import io.livegate.process.SetprivSandbox;
import io.livegate.scan.CreateDeployStack;
import io.livegate.scan.GraphScan;
import io.livegate.scan.SandboxedPlan;
import io.livegate.scan.config.AccountsFile;
import io.livegate.scan.repo.Checkout;
import io.livegate.sql.Metadb;
import io.livegate.sql.testing.EmbeddedMetadb;
import io.livegate.sql.testing.Webhooks;
import io.livegate.statemachine.DeployFlow;
import io.livegate.statemachine.RuntimeContract;
import io.livegate.statemachine.TriggerEvent;
import io.livegate.tasks.TaskWiring;
import io.livegate.tasks.TerraRunJob;
import io.livegate.tests.moto.MotoServer;
import io.livegate.tests.scenarios.LiveRepo;
import io.livegate.tests.scenarios.Outcome;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URLDecoder;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BooleanSupplier;
import java.util.function.Function;
import java.util.function.LongConsumer;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.ecs.EcsClient;
import software.amazon.awssdk.services.ecs.model.Compatibility;
import software.amazon.awssdk.services.ecs.model.ContainerOverride;
import software.amazon.awssdk.services.ecs.model.NetworkMode;
import software.amazon.awssdk.services.ecs.model.Task;
import software.amazon.awssdk.services.iam.IamClient;
import software.amazon.awssdk.services.lambda.LambdaClient;
import software.amazon.awssdk.services.lambda.model.Runtime;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.secretsmanager.SecretsManagerClient;
import software.amazon.awssdk.services.sesv2.SesV2Client;
import software.amazon.awssdk.services.sfn.SfnClient;
import software.amazon.awssdk.services.sfn.model.DescribeExecutionResponse;
import software.amazon.awssdk.services.sfn.model.ExecutionListItem;
import software.amazon.awssdk.services.sns.SnsClient;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.Message;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;
import software.amazon.awssdk.services.ssm.SsmClient;
import software.amazon.awssdk.services.ssm.model.ParameterType;
import software.amazon.awssdk.services.sts.StsClient;

/**
 * One deployment on moto: the real ASL runs in moto's Step Functions; this harness plays the ECS
 * containers (terra-run with real git and terraform), the approval topic's Lambda subscription, the
 * voters' clicks on their mailed links, EventBridge's status-change rule that invokes the trigger,
 * and the trigger function itself when a task invokes it through Lambda. Everything else is the
 * production code: the handlers, the jobs, the AWS adapters and the metadb on an embedded
 * PostgreSQL. Call {@link MotoServer#reset} before each deployment.
 */
public final class MotoDeployment implements AutoCloseable {
  static final String REPOSITORY = "acme/live";
  static final String LOCK_PARAMETER = "/livegate/merge-lock";
  static final String LOG_URL = "https://logs.example.com/terra-run";
  static final String TRIGGER_FUNCTION = "livegate-trigger";
  private static final String GITHUB_TOKEN = "/livegate/github-token";
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String ROLE = "arn:aws:iam::123456789012:role/livegate-deploy-flow";
  private static final String MAIL_FROM = "livegate@example.com";
  private static final String VOTE_BASE_URL = "https://vote.example.com";
  private static final String BUCKET = "livegate-plans";
  private static final String VOTE_KEY = "a vote-link key of at least thirty-two bytes";
  private static final Pattern VOTE_TOKEN = Pattern.compile("/vote\\?t=([A-Za-z0-9_.%\\-]+)");

  /**
   * How long a deployment may go without progress (a round with something to do, or an execution's
   * status changed) before the harness calls it stuck. It bounds silence, not the whole run, which
   * on a loaded machine takes several times as long as on a quiet one.
   */
  private static final Duration STUCK = Duration.ofMinutes(5);

  private static final long POLL_MILLIS = 200;

  /** A container's exit code after SIGKILL. */
  private static final int KILLED = 137;

  /**
   * How the deployment runs.
   *
   * @param flowTimeoutSeconds the state machine's TimeoutSeconds
   * @param planHeartbeatSeconds the Plan state's HeartbeatSeconds instead of the ASL's, so that a
   *     test sees a missed heartbeat in seconds; empty keeps the ASL's
   */
  public record Settings(
      Duration approvalTimeout,
      long flowTimeoutSeconds,
      boolean skipEmpty,
      OptionalLong planHeartbeatSeconds) {
    public Settings(Duration approvalTimeout, long flowTimeoutSeconds, boolean skipEmpty) {
      this(approvalTimeout, flowTimeoutSeconds, skipEmpty, OptionalLong.empty());
    }

    public static Settings of(Duration approvalTimeout) {
      return new Settings(approvalTimeout, 3600, false);
    }
  }

  /** One answer to a task token from approval-response, and whether Step Functions took it. */
  public record TokenAnswer(String taskToken, FlowDecision decision, boolean accepted) {}

  final MotoServer moto;

  /** The execution logs terra-run keeps in the artifact bucket. */
  final S3ExecutionLogs logs;

  final Path dir;
  final LiveRepo repo;
  final Accounts accounts;
  final Metadb metadb;
  final SfnClient sfn;
  final EcsClient ecs;
  final SnsClient sns;
  final SqsClient sqs;
  final S3Client s3;
  final SsmClient ssm;
  final SesV2Client ses;
  final HttpClient http = HttpClient.newHttpClient();
  final String cluster;
  final String stateMachineArn;
  final String queueUrl;
  final SsmMergeLock lock;
  private final GitHubApi github = new GitHubApi();
  final SfnFlows flows;
  private final CommitStatusPublisher statuses;
  private final AwsEngine engine;
  final TriggerHandler trigger;

  /** The admin Lambda's handler, wired from the environment the CDK app gives it. */
  final AdminHandler admin;

  final ApprovalRequestHandler approvalRequests;
  final ApprovalResponseHandler approvalResponses;
  final TerraRunJob terraRun;

  /** How often a playing plan container sends heartbeats: well within the Plan state's. */
  private final Duration heartbeatInterval;

  final VoteLinks links = new VoteLinks(VOTE_KEY.getBytes(StandardCharsets.UTF_8));
  private final List<TokenAnswer> decisions = Collections.synchronizedList(new ArrayList<>());
  private final Set<String> handledTasks = new HashSet<>();
  private final Map<String, Boolean> killFirstApply = new ConcurrentHashMap<>();
  private final Set<String> killAtFailedApply = ConcurrentHashMap.newKeySet();
  private final Map<String, Integer> applies = new ConcurrentHashMap<>();
  private final DurableKeptOutputRunner durable;
  private final Set<String> seenMails = new HashSet<>();
  private final Set<Long> voted = new HashSet<>();
  private final Map<Long, Map<String, Map<Vote.Choice, String>>> ballots = new TreeMap<>();
  private final Map<String, DescribeExecutionResponse> ended = new LinkedHashMap<>();
  private final Map<String, String> taskEnvironment;
  private final Map<String, String> webhookEnvironment;
  private WebhookHandler webhook;
  private int playedInvocations;

  /** How often EventBridge delivers each status change. */
  int deliveries = 1;

  /** While true, status changes are not delivered: the trigger has not heard of them yet. */
  boolean holdEnds;

  /**
   * The executions whose plan container is killed (exit 137) before it reports; EventBridge's
   * StoppedTasks rule delivers the stop to the trigger.
   */
  Predicate<Execution> killPlans = execution -> false;

  /**
   * The executions whose plan container hangs: it never reports, never stops and sends no
   * heartbeat, so only the Plan state's HeartbeatSeconds ends it.
   */
  Predicate<Execution> hangPlans = execution -> false;

  long deploymentId;

  public MotoDeployment(MotoServer moto, Path dir, LiveRepo repo, Settings settings) {
    this(moto, dir, repo, settings, Sandbox.none("the harness runs terraform as itself"), Map.of());
  }

  /**
   * A deployment whose terra-run runs terraform as the tasks wire it: as the image's unprivileged
   * user ({@link SetprivSandbox}, which needs this JVM to run as root, as the task's Java does),
   * with the environment {@link TaskWiring#terraformEnvironment} makes of the task's {@code task}.
   */
  static MotoDeployment asTheTasksRunTerraform(
      MotoServer moto, Path dir, LiveRepo repo, Map<String, String> task) {
    Path home = dir.resolve("terra-run/home");
    return new MotoDeployment(
        moto,
        dir,
        repo,
        Settings.of(Duration.ofMinutes(10)),
        new SetprivSandbox(SetprivSandbox.IMAGE_USER, SetprivSandbox.IMAGE_USER, home),
        TaskWiring.terraformEnvironment(task, home));
  }

  /**
   * @param sandbox how terra-run runs terraform ({@link io.livegate.process.SetprivSandbox} as the
   *     tasks wire it)
   * @param terraformEnvironment the environment terra-run hands terraform, as the task's would be
   */
  public MotoDeployment(
      MotoServer moto,
      Path dir,
      LiveRepo repo,
      Settings settings,
      Sandbox sandbox,
      Map<String, String> terraformEnvironment) {
    this.moto = moto;
    this.dir = dir;
    this.repo = repo;
    this.accounts = AccountsFile.parse("livegate.hcl", repo.accounts());
    this.sfn = moto.client(SfnClient.builder());
    this.ecs = moto.client(EcsClient.builder());
    this.sns = moto.client(SnsClient.builder());
    this.sqs = moto.client(SqsClient.builder());
    this.s3 = moto.client(S3Client.builder());
    this.ssm = moto.client(SsmClient.builder());
    this.ses = moto.client(SesV2Client.builder());
    this.lock = new SsmMergeLock(ssm, LOCK_PARAMETER);
    Clock clock = Clock.systemUTC();

    cluster = ecs.createCluster(r -> r.clusterName("livegate")).cluster().clusterArn();
    String taskDefinition =
        ecs.registerTaskDefinition(
                r ->
                    r.family("terra-run")
                        .requiresCompatibilities(Compatibility.FARGATE)
                        .networkMode(NetworkMode.AWSVPC)
                        .cpu("256")
                        .memory("512")
                        .containerDefinitions(
                            c ->
                                c.name(DeployFlow.TERRA_RUN)
                                    .image("livegate/ecs-tasks:test")
                                    .memory(512)
                                    .essential(true)))
            .taskDefinition()
            .taskDefinitionArn();
    MotoServer.Network network = moto.network();
    String topicArn = sns.createTopic(r -> r.name("livegate-approvals")).topicArn();
    queueUrl = sqs.createQueue(r -> r.queueName("approval-request")).queueUrl();
    String queueArn =
        sqs.getQueueAttributes(
                r -> r.queueUrl(queueUrl).attributeNames(QueueAttributeName.QUEUE_ARN))
            .attributes()
            .get(QueueAttributeName.QUEUE_ARN);
    sns.subscribe(
        r ->
            r.topicArn(topicArn)
                .protocol("sqs")
                .endpoint(queueArn)
                .attributes(Map.of("RawMessageDelivery", "true")));
    s3.createBucket(r -> r.bucket(BUCKET));
    ses.createEmailIdentity(r -> r.emailIdentity(MAIL_FROM));
    createTriggerFunction(moto);
    Map<DeployFlow.Substitution, String> values = new EnumMap<>(DeployFlow.Substitution.class);
    values.put(DeployFlow.Substitution.CLUSTER_ARN, cluster);
    values.put(DeployFlow.Substitution.TERRA_RUN_PLAN_TASK_DEFINITION_ARN, taskDefinition);
    values.put(DeployFlow.Substitution.TERRA_RUN_APPLY_TASK_DEFINITION_ARN, taskDefinition);
    values.put(DeployFlow.Substitution.TERRA_RUN_CONTAINER_NAME, DeployFlow.TERRA_RUN);
    values.put(DeployFlow.Substitution.SUBNET_IDS, network.subnetId());
    values.put(DeployFlow.Substitution.SECURITY_GROUP_IDS, network.securityGroupId());
    values.put(DeployFlow.Substitution.APPROVAL_TOPIC_ARN, topicArn);
    heartbeatInterval =
        settings.planHeartbeatSeconds().isPresent() ? Duration.ofSeconds(1) : SfnHeartbeat.INTERVAL;
    String definition =
        planHeartbeat(
            DeployFlow.render(values, settings.flowTimeoutSeconds()),
            settings.planHeartbeatSeconds());
    stateMachineArn =
        sfn.createStateMachine(r -> r.name("deploy-flow").roleArn(ROLE).definition(definition))
            .stateMachineArn();

    SfnTaskTokens tokens = new SfnTaskTokens(sfn);
    S3PlanStore plans = new S3PlanStore(s3, BUCKET);
    logs = new S3ExecutionLogs(s3, BUCKET);
    flows = new SfnFlows(sfn, stateMachineArn, settings.approvalTimeout());
    ssm.putParameter(
        r -> r.name(GITHUB_TOKEN).type(ParameterType.SECURE_STRING).value(GitHubApi.TOKEN));
    // The trigger's engine as production wires it, from the environment the CDK app sets.
    Map<String, String> env = moto.wiringEnvironment();
    env.put(RuntimeContract.Metadb.URL, EmbeddedMetadb.freshUrl());
    env.put(RuntimeContract.Metadb.USER, EmbeddedMetadb.USER);
    env.put(RuntimeContract.Engine.STATE_MACHINE, stateMachineArn);
    env.put(RuntimeContract.Engine.LOCK_PARAMETER, LOCK_PARAMETER);
    env.put(RuntimeContract.Engine.APPROVAL_TIMEOUT, settings.approvalTimeout().toString());
    env.put(RuntimeContract.Engine.RUNNER, "terraform");
    env.put(RuntimeContract.Engine.STATUS_URL, LOG_URL);
    env.put(RuntimeContract.Ecs.CLUSTER, cluster);
    env.put(RuntimeContract.Ecs.SUBNETS, network.subnetId());
    env.put(RuntimeContract.Ecs.SECURITY_GROUPS, network.securityGroupId());
    env.put(RuntimeContract.Ecs.CONTAINER, DeployFlow.TERRA_RUN);
    env.put(RuntimeContract.Scan.TASK_DEFINITION, taskDefinition);
    env.put(RuntimeContract.Watchdog.METRIC_NAMESPACE, "livegate/test");
    env.put(RuntimeContract.GitHub.API_URL, github.url());
    env.put(RuntimeContract.GitHub.TOKEN_PARAMETER, GITHUB_TOKEN);
    this.engine = AwsEngine.fromEnvironment(env);
    taskEnvironment = environmentOfTasks(env);
    this.metadb = engine.metadb();
    this.statuses = engine.statuses();
    trigger =
        new TriggerHandler(TriggerHandler.parts(engine), TriggerHandler.watchdog(engine, env));
    // The approval Lambdas as production wires them too, answering task tokens through a
    // recorder that keeps each answer for the tests.
    try (SecretsManagerClient secrets = moto.client(SecretsManagerClient.builder())) {
      env.put(
          RuntimeContract.Approval.VOTE_KEY_SECRET,
          secrets.createSecret(r -> r.name("livegate/vote-key").secretString(VOTE_KEY)).arn());
      env.put(
          RuntimeContract.Webhook.WEBHOOK_SECRET,
          secrets
              .createSecret(r -> r.name("livegate/webhook").secretString(Webhooks.SECRET))
              .arn());
    }
    env.put(RuntimeContract.Approval.MAIL_FROM, MAIL_FROM);
    env.put(RuntimeContract.Approval.VOTE_BASE_URL, VOTE_BASE_URL);
    env.put(RuntimeContract.Approval.SKIP_EMPTY, Boolean.toString(settings.skipEmpty()));
    env.put(RuntimeContract.Artifacts.PLAN_BUCKET, BUCKET);
    env.put(RuntimeContract.Webhook.REPOSITORY, REPOSITORY);
    env.put(RuntimeContract.Webhook.TRUNK, "main");
    env.put(RuntimeContract.PullRequestPlans.TASK_DEFINITION, taskDefinition);
    env.put(RuntimeContract.Tasks.TRIGGER_FUNCTION, TRIGGER_FUNCTION);
    webhookEnvironment = Map.copyOf(env);
    admin = new AdminHandler(engine, env);
    ApprovalWiring approval = ApprovalWiring.fromEnvironment(env);
    approvalRequests = new ApprovalRequestHandler(approval::requestVotes);
    ApprovalResponseHandler.Parts wired = approval.responseParts();
    FlowCallback recordedTokens =
        new FlowCallback() {
          @Override
          public boolean decide(String taskToken, FlowDecision decision) {
            boolean accepted = wired.callback().decide(taskToken, decision);
            decisions.add(new TokenAnswer(taskToken, decision, accepted));
            return accepted;
          }

          @Override
          public boolean fail(String taskToken, String error, String cause) {
            return wired.callback().fail(taskToken, error, cause);
          }
        };
    ApprovalResponseHandler.Parts parts =
        new ApprovalResponseHandler.Parts(wired.desk(), wired.executions(), recordedTokens);
    approvalResponses = new ApprovalResponseHandler(() -> parts);
    // The workspace persists between Plan and Apply and across units: it stands in for the units'
    // remote backend (S3 in production), since the units keep local state files and read their
    // dependencies' outputs from them.
    DurableKeptOutputRunner durable =
        new DurableKeptOutputRunner(
            new AssumedRoleRunner(
                new ProcessCommandRunner(line -> {}),
                new RoleSessions(
                    moto.client(StsClient.builder()),
                    "livegate-terra-run",
                    RuntimeContract.Tasks.DEFAULT_ROLE_SESSION_DURATION,
                    clock),
                moto.region().id()),
            new S3KeptOutputs(s3, BUCKET),
            System.out::println);
    terraRun =
        new TerraRunJob(
            new TerraRunJob.Ports(
                metadb.deployments(),
                metadb.executions(),
                TerraRunJob.unitStep(
                    metadb.executions(),
                    metadb.votes(),
                    plans,
                    new Checkout(repo.root().toString(), Optional.empty()),
                    new SandboxedPlan.Tools(
                        // as TaskWiring wires terra-run: each command's output kept in the bucket
                        new LoggedCommandRunner(
                            this::runInContainer, TerraRunJob.plans(workspace()), logs, clock),
                        RunnerArgv.TERRAFORM,
                        sandbox,
                        terraformEnvironment),
                    workspace()),
                tokens,
                statuses,
                LOG_URL,
                TerraRunJob.Resuming.from(durable, workspace())),
            System.out::println,
            clock);
    this.durable = durable;
  }

  /**
   * The trigger Lambda, whose code moto does not run: a task's invocation of it is recorded
   * (moto_launcher.py's Lambda convention) and played by {@link #playFunctions}, or by a test that
   * reads moto's invocations.
   */
  static void createTriggerFunction(MotoServer moto) {
    String roleArn;
    try (IamClient iam = moto.client(IamClient.builder())) {
      roleArn =
          iam.createRole(
                  r ->
                      r.roleName("livegate-trigger")
                          .assumeRolePolicyDocument(
                              "{\"Version\":\"2012-10-17\",\"Statement\":[{\"Effect\":\"Allow\","
                                  + "\"Principal\":{\"Service\":\"lambda.amazonaws.com\"},"
                                  + "\"Action\":\"sts:AssumeRole\"}]}"))
              .role()
              .arn();
    }
    try (LambdaClient lambda = moto.client(LambdaClient.builder())) {
      lambda.createFunction(
          r ->
              r.functionName(TRIGGER_FUNCTION)
                  .runtime(Runtime.JAVA21)
                  .role(roleArn)
                  .handler(TriggerHandler.class.getName())
                  .code(c -> c.zipFile(SdkBytes.fromByteArray(emptyZip()))));
    }
  }

  /**
   * What the ECS tasks' wiring ({@link io.livegate.tasks.TaskWiring}) reads to reach this
   * deployment's metadb, trigger and repository, as the CDK app sets it on their containers; a test
   * adds a task's own variables.
   */
  private Map<String, String> environmentOfTasks(Map<String, String> engineEnvironment) {
    Map<String, String> tasks = moto.wiringEnvironment();
    for (String name :
        List.of(
            RuntimeContract.Metadb.URL,
            RuntimeContract.Metadb.USER,
            RuntimeContract.Engine.RUNNER)) {
      tasks.put(name, engineEnvironment.get(name));
    }
    tasks.put(RuntimeContract.Tasks.TRIGGER_FUNCTION, TRIGGER_FUNCTION);
    tasks.put(RuntimeContract.Tasks.REPO_URL, repo.root().toString());
    tasks.put(RuntimeContract.Tasks.ACCOUNTS, repo.accounts());
    return tasks;
  }

  /** {@link #environmentOfTasks}, as a mutable copy. */
  Map<String, String> taskEnvironment() {
    return new HashMap<>(taskEnvironment);
  }

  /** Every commit status posted to GitHub's API so far, oldest first. */
  RecordingStatuses commitStatuses() {
    return github.statuses();
  }

  /** Runs the scenario's deployment to its end and answers where it ended. */
  public Outcome run(Function<Execution, Vote.Choice> votes) {
    deploy();
    drive(votes);
    return outcome();
  }

  /** create-deploy-stack, whose trigger invocation is the trigger handler, in process. */
  public void deploy() {
    scan(
        MergedPullRequest.withExactBase(REPOSITORY, 1, "main", "change", repo.base(), repo.head()),
        id -> deploymentId = id);
    assertThat(deploymentId).isPositive();
  }

  /**
   * A later merge, from {@code base} to {@code merge}, as the webhook reports it: queued behind the
   * deployment that holds the lock, or started (its create-deploy-stack task launched) when none
   * does. Answers what the engine said.
   */
  String merge(int number, String base, String merge) {
    return engine
        .advance()
        .merged(
            MergedPullRequest.withExactBase(
                REPOSITORY, number, "main", "pr-" + number, base, merge))
        .message();
  }

  /**
   * GitHub's delivery of pull request {@code number}, squashed into {@code merge} on top of {@code
   * base}, to the webhook Lambda as production wires it; answers the Lambda's response. The
   * statuses it holds back reach the trigger as a recorded invocation, which {@link #drive} plays.
   */
  JsonNode deliverMerge(int number, String base, String merge) {
    ObjectNode payload = Webhooks.merged(number, merge);
    ((ObjectNode) payload.get("repository")).put("full_name", REPOSITORY);
    ObjectNode pr = (ObjectNode) payload.get("pull_request");
    pr.put("commits", 1);
    ((ObjectNode) pr.get("base")).put("ref", "main").put("sha", base);
    ObjectNode head = (ObjectNode) pr.get("head");
    head.put("ref", "pr-" + number).put("sha", merge);
    ((ObjectNode) head.get("repo")).put("full_name", REPOSITORY);
    if (webhook == null) {
      WebhookWiring wiring = WebhookWiring.fromEnvironment(webhookEnvironment);
      webhook = new WebhookHandler(wiring::receiver, wiring::handOnStatuses);
    }
    return deliver(webhook, payload);
  }

  /**
   * A {@code pull_request} delivery of {@code payload}, signed with the webhook secret under a new
   * delivery id, to {@code webhook} as its Function URL passes it; answers the Lambda's response.
   */
  static JsonNode deliver(WebhookHandler webhook, ObjectNode payload) {
    String body = payload.toString();
    ObjectNode event = JSON.createObjectNode();
    event.putObject("requestContext").putObject("http").put("method", "POST");
    event
        .putObject("headers")
        .put("x-github-event", "pull_request")
        .put("x-github-delivery", UUID.randomUUID().toString())
        .put(
            "x-hub-signature-256",
            WebhookSignature.sign(
                WebhookSignature.secret(Webhooks.SECRET), body.getBytes(StandardCharsets.UTF_8)));
    event.put("body", body);
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try {
      webhook.handleRequest(
          new ByteArrayInputStream(event.toString().getBytes(StandardCharsets.UTF_8)), out, null);
      return JSON.readTree(out.toByteArray());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * {@link #drive}, every vote an approval, until pull request {@code number}'s deployment has
   * ended and no flow runs; answers that deployment.
   */
  Deployment driveTheDeploymentOf(int number) {
    driveUntil(
        execution -> Vote.Choice.APPROVE,
        () ->
            metadb.deployments().all().stream()
                    .anyMatch(d -> d.pullRequest().number() == number && d.status().isFinished())
                && runningFlows() == 0);
    return deploymentOf(number);
  }

  /** The deployment of pull request {@code number}. */
  Deployment deploymentOf(int number) {
    return metadb.deployments().all().stream()
        .filter(deployment -> deployment.pullRequest().number() == number)
        .findFirst()
        .orElseThrow();
  }

  /** create-deploy-stack of {@code merge} in process; its report goes to the trigger handler. */
  private void scan(MergedPullRequest merge, LongConsumer created) {
    CreateDeployStack job =
        new CreateDeployStack(
            metadb.deployments(),
            engine.engine().create(),
            new CreateDeployStack.Scanning(
                new Checkout(repo.root().toString(), Optional.empty()),
                dir.resolve("create-deploy-stack"),
                new GraphScan(message -> {})::run,
                accounts,
                RunnerArgv.TERRAFORM),
            new CreateDeployStack.Reporting(
                new CreateDeployStack.Events() {
                  @Override
                  public void deploymentCreated(long id) {
                    created.accept(id);
                    trigger.handle(
                        JSON.createObjectNode().put(TriggerEvent.DEPLOYMENT_CREATED, id));
                  }

                  @Override
                  public void scanFailed(long id, String reason) {
                    throw new AssertionError("the scan of deployment " + id + " failed: " + reason);
                  }
                },
                statuses,
                "",
                System.out::println),
            Clock.systemUTC());
    assertThat(job.run(merge)).isZero();
  }

  /**
   * The merge a create-deploy-stack task's argv names ({@link EcsScanLauncher#command}), as the
   * task reads it: a merge GitHub reported keeps its head and commit count, so its range follows
   * the trunk's order ({@link io.livegate.core.deploy.TrunkOrder}) as it does in production.
   */
  private static MergedPullRequest scanned(List<String> command) {
    Map<String, String> options = new HashMap<>();
    for (String argument : command.subList(1, command.size())) {
      int equals = argument.indexOf('=');
      options.put(argument.substring(0, equals), argument.substring(equals + 1));
    }
    String head = options.get("--head-sha");
    return MergedPullRequest.fromGitHub(
        options.get("--repository"),
        Integer.parseInt(options.get("--pull-request")),
        options.get("--base-ref"),
        options.get("--head-ref"),
        options.get("--base-sha"),
        options.get("--merge-sha"),
        head.isEmpty() ? null : head,
        Integer.parseInt(options.get("--commits")));
  }

  /** The rendered deploy flow with the Plan state's HeartbeatSeconds set to {@code seconds}. */
  private static String planHeartbeat(String definition, OptionalLong seconds) {
    if (seconds.isEmpty()) {
      return definition;
    }
    ObjectNode asl = (ObjectNode) json(definition);
    ((ObjectNode) asl.path("States").path("Plan")).put("HeartbeatSeconds", seconds.getAsLong());
    return asl.toString();
  }

  /**
   * Plays the containers, the approval topic's Lambda, the voters and EventBridge until the
   * deployment is finished and no flow runs. {@code votes} answers an execution's vote through one
   * voter's mailed link; null for none.
   */
  public void drive(Function<Execution, Vote.Choice> votes) {
    driveUntil(votes, () -> deploymentStatus().isFinished() && runningFlows() == 0);
  }

  /** {@link #drive} until {@code done}, checked whenever a round found nothing to do. */
  public void driveUntil(Function<Execution, Vote.Choice> votes, BooleanSupplier done) {
    Instant progressed = Instant.now();
    Map<String, ExecutionStatus> seen = Map.of();
    while (true) {
      boolean busy = playTasks() | requestApprovals();
      // One model dump a round: building it is moto's heaviest answer.
      JsonNode data = motoData();
      busy |= playFunctions(data) | vote(data, votes) | deliverEnds();
      if (!busy && done.getAsBoolean()) {
        return;
      }
      Map<String, ExecutionStatus> now = statuses();
      if (busy || !now.equals(seen)) {
        seen = now;
        progressed = Instant.now();
      } else if (Instant.now().isAfter(progressed.plus(STUCK))) {
        throw new AssertionError(
            "no progress for "
                + STUCK
                + ": deployment "
                + deploymentStatus()
                + " "
                + statuses()
                + " flows "
                + sfnStatuses());
      }
      if (!busy) {
        pause();
      }
    }
  }

  private boolean playTasks() {
    boolean busy = false;
    for (Task task : moto.runningTasks(cluster)) {
      if (!handledTasks.add(task.taskArn())) {
        continue;
      }
      busy = true;
      ContainerOverride override = task.overrides().containerOverrides().get(0);
      List<String> command = override.command();
      if (command.get(0).equals("create-deploy-stack")) {
        scan(scanned(command), id -> {});
        moto.stopTask(cluster, task.taskArn(), 0);
        continue;
      }
      Map<String, String> env = moto.taskEnvironment(cluster, task.taskArn());
      long executionId = Long.parseLong(env.get(DeployFlow.EXECUTION_ID_ENV));
      Execution execution = metadb.executions().find(executionId).orElseThrow();
      int exitCode;
      if (command.equals(List.of("terra-run", DeployFlow.PLAN_MODE)) && hangPlans.test(execution)) {
        System.out.println("harness: the plan of " + execution.name() + " hangs");
        continue;
      } else if (command.equals(List.of("terra-run", DeployFlow.PLAN_MODE))
          && killPlans.test(execution)) {
        moto.stopTask(cluster, task.taskArn(), 137);
        System.out.println(
            "trigger: " + trigger.handle(moto.stoppedTaskEvent(cluster, task.taskArn(), 137)));
        continue;
      } else if (command.equals(List.of("terra-run", DeployFlow.PLAN_MODE))) {
        // terra-run's main sends the Plan state's heartbeats while it plans.
        String token = env.get(DeployFlow.TASK_TOKEN_ENV);
        try (SfnHeartbeat heartbeat =
            SfnHeartbeat.start(sfn, token, heartbeatInterval, System.out::println)) {
          exitCode = terraRun.plan(executionId, token);
        }
      } else if (command.equals(List.of("terra-run", DeployFlow.APPLY_MODE))) {
        exitCode = applyInContainer(executionId);
      } else {
        throw new AssertionError("unexpected task command " + command);
      }
      moto.stopTask(cluster, task.taskArn(), exitCode);
    }
    return busy;
  }

  /**
   * Plays the trigger Lambda for each invocation recorded in moto's {@code data} since the last
   * round, as the Lambda service runs an asynchronous invocation.
   */
  private boolean playFunctions(JsonNode data) {
    JsonNode invocations = data.path("awslambda_simple").path("LambdaInvocation");
    boolean busy = false;
    for (; playedInvocations < invocations.size(); playedInvocations++) {
      busy = true;
      JsonNode invocation = invocations.get(playedInvocations);
      assertThat(invocation.path("function_name").asText()).isEqualTo(TRIGGER_FUNCTION);
      System.out.println("trigger: " + trigger.handle(json(invocation.path("payload").asText())));
    }
    return busy;
  }

  /**
   * Makes the first Apply task of {@code unit} stop as a killed container does (exit 137), before
   * terraform changed anything or, with {@code afterApplying}, after the apply but before the task
   * could report it.
   */
  void killTheFirstApplyOf(String unit, boolean afterApplying) {
    killFirstApply.put(unit, afterApplying);
  }

  /**
   * Makes the Apply task of {@code unit} die the moment its terraform apply fails: its output is
   * kept as production keeps it, then the container is gone (its disk with it) before terra-run
   * records the failure or logs the command.
   */
  void killAtTheFailedApplyOf(String unit) {
    killAtFailedApply.add(unit);
  }

  /** How many times terraform apply ran for the (non-rollback) execution of {@code unit}. */
  int appliesOf(String unit) {
    return applies.getOrDefault(name(unit), 0);
  }

  /** The container's command runner: counts each apply, and dies where a test asked. */
  private CommandResult runInContainer(Command command) {
    CommandResult result = durable.run(command);
    if (command.pidFile().isEmpty()) {
      return result;
    }
    Path pidFile = command.pidFile().get();
    String name = pidFile.getFileName().toString().replace(".apply.pid", "");
    applies.merge(name, 1, Integer::sum);
    Optional<Execution> killed =
        executions().stream()
            .filter(e -> e.name().equals(name) && killAtFailedApply.contains(e.unit()))
            .findFirst();
    if (result.exitCode() != 0 && killed.isPresent()) {
      killAtFailedApply.remove(killed.get().unit());
      Path output = ProcessCommandRunner.keptOutput(pidFile);
      try {
        Files.deleteIfExists(output.resolve(ProcessCommandRunner.STDOUT));
        Files.deleteIfExists(output.resolve(ProcessCommandRunner.STDERR));
        Files.deleteIfExists(output);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      throw new ContainerKilled(name);
    }
    return result;
  }

  /** The Apply task's container died: nothing after this point of terra-run ran. */
  private static final class ContainerKilled extends RuntimeException {
    private static final long serialVersionUID = 1L;

    ContainerKilled(String execution) {
      super("the Apply task of " + execution + " was killed");
    }
  }

  /** An exception out of terra-run apply ends the container's main with a non-zero code. */
  private int applyInContainer(long executionId) {
    Execution execution = metadb.executions().find(executionId).orElseThrow();
    Boolean afterApplying = killFirstApply.remove(execution.unit());
    if (afterApplying != null) {
      if (afterApplying) {
        assertThat(terraRun.apply(executionId)).as("the apply the kill follows").isZero();
      } else {
        // terra-run's first step: the container dies right after it.
        metadb
            .executions()
            .enterFlowState(executionId, FlowState.APPLY.stateName(), null, Instant.now());
      }
      return KILLED;
    }
    try {
      return terraRun.apply(executionId);
    } catch (ContainerKilled e) {
      System.out.println("harness: " + e.getMessage());
      return KILLED;
    } catch (RuntimeException e) {
      System.out.println("terra-run apply threw: " + e);
      return 1;
    }
  }

  private boolean requestApprovals() {
    List<Message> messages =
        sqs.receiveMessage(r -> r.queueUrl(queueUrl).maxNumberOfMessages(10)).messages();
    for (Message message : messages) {
      ObjectNode event = JSON.createObjectNode();
      event.putArray("Records").addObject().putObject("Sns").put("Message", message.body());
      JsonNode answer = approvalRequests.handle(event);
      System.out.println("approval-request: " + answer);
      sqs.deleteMessage(r -> r.queueUrl(queueUrl).receiptHandle(message.receiptHandle()));
    }
    return !messages.isEmpty();
  }

  /**
   * Reads the mail that SES sent (moto keeps it in {@code data}) into {@link #ballots}, and votes
   * once per execution through the first mailed voter's link.
   */
  private boolean vote(JsonNode data, Function<Execution, Vote.Choice> votes) {
    boolean busy = false;
    for (JsonNode mail : data.path("ses").path("Message")) {
      if (!seenMails.add(mail.path("id").asText())) {
        continue;
      }
      busy = true;
      Map<Vote.Choice, String> tokens = new EnumMap<>(Vote.Choice.class);
      VoteLinks.Ballot ballot = null;
      Matcher matcher = VOTE_TOKEN.matcher(mail.path("body").asText());
      while (matcher.find()) {
        String token = URLDecoder.decode(matcher.group(1), StandardCharsets.UTF_8);
        if (links.check(token, Instant.now()) instanceof VoteLinks.Check.Valid valid) {
          tokens.put(valid.ballot().choice(), token);
          ballot = valid.ballot();
        }
      }
      assertThat(tokens).as("the links of mail %s", mail).hasSize(2);
      ballots
          .computeIfAbsent(ballot.executionId(), id -> new TreeMap<>())
          .put(ballot.voter(), tokens);
      if (!voted.add(ballot.executionId())) {
        continue;
      }
      Vote.Choice choice =
          votes.apply(metadb.executions().find(ballot.executionId()).orElseThrow());
      if (choice == null) {
        continue;
      }
      String token = tokens.get(choice);
      assertThat(confirmPage(token).path("statusCode").asInt()).isEqualTo(200);
      JsonNode answer = castVote(token);
      assertThat(answer.path("statusCode").asInt()).as(answer.toString()).isEqualTo(200);
    }
    return busy;
  }

  /** The voter opens their link: approval-response's GET, which records nothing. */
  JsonNode confirmPage(String token) {
    ObjectNode get = functionUrlEvent("GET");
    get.put("rawQueryString", "t=" + URLEncoder.encode(token, StandardCharsets.UTF_8));
    return approvalResponses.handle(get);
  }

  /** The voter presses the confirm page's button: approval-response's POST. */
  JsonNode castVote(String token) {
    ObjectNode post = functionUrlEvent("POST");
    post.put("body", "t=" + URLEncoder.encode(token, StandardCharsets.UTF_8));
    post.put("isBase64Encoded", false);
    return approvalResponses.handle(post);
  }

  /** Every voter's mailed tokens for the execution, by voter and choice. */
  Map<String, Map<Vote.Choice, String>> ballots(long executionId) {
    return ballots.getOrDefault(executionId, Map.of());
  }

  /** Every answer approval-response gave to a task token, in order. */
  List<TokenAnswer> decisions() {
    return List.copyOf(decisions);
  }

  private boolean deliverEnds() {
    if (holdEnds) {
      return false;
    }
    boolean busy = false;
    for (ExecutionListItem item : listExecutions()) {
      if (item.statusAsString().equals("RUNNING") || ended.containsKey(item.name())) {
        continue;
      }
      busy = true;
      DescribeExecutionResponse end =
          sfn.describeExecution(r -> r.executionArn(item.executionArn()));
      ended.put(item.name(), end);
      for (int i = 0; i < deliveries; i++) {
        deliver(end);
      }
    }
    return busy;
  }

  void redeliverEveryEnd() {
    ended.values().forEach(this::deliver);
  }

  /** EventBridge's "Step Functions Execution Status Change" for {@code end}, to the trigger. */
  void deliver(DescribeExecutionResponse end) {
    ObjectNode event = JSON.createObjectNode();
    event.put("detail-type", "Step Functions Execution Status Change");
    event.put("source", "aws.states");
    ObjectNode detail = event.putObject("detail");
    detail.put("name", end.name());
    detail.put("status", end.statusAsString());
    if (end.output() != null) {
      detail.put("output", end.output());
    } else {
      detail.putNull("output");
    }
    detail.put("executionArn", end.executionArn());
    System.out.println("trigger: " + trigger.handle(event));
  }

  /** create-deploy-stack's invocation of the trigger, again. */
  String deliverCreated() {
    return trigger.handle(
        JSON.createObjectNode().put(TriggerEvent.DEPLOYMENT_CREATED, deploymentId));
  }

  List<ExecutionListItem> listExecutions() {
    return sfn.listExecutions(r -> r.stateMachineArn(stateMachineArn).maxResults(100)).executions();
  }

  long runningFlows() {
    return listExecutions().stream().filter(e -> e.statusAsString().equals("RUNNING")).count();
  }

  public DeploymentStatus deploymentStatus() {
    return metadb.deployments().find(deploymentId).orElseThrow().status();
  }

  /** The subjects of the mail SES sent, in order. */
  List<String> mailSubjects() {
    List<String> subjects = new ArrayList<>();
    motoData()
        .path("ses")
        .path("Message")
        .forEach(mail -> subjects.add(mail.path("subject").asText()));
    return subjects;
  }

  /** Every deployment of the repository, merges and drift reconciles, in queue order. */
  List<Deployment> deployments() {
    return metadb.deployments().list(REPOSITORY);
  }

  public List<Execution> executions() {
    return metadb.executions().list(deploymentId);
  }

  public Outcome outcome() {
    return Outcome.of(deploymentStatus(), executions());
  }

  Map<String, ExecutionStatus> statuses() {
    return executions().stream()
        .collect(Collectors.toMap(Execution::unit, Execution::status, (a, b) -> b, HashMap::new));
  }

  Execution execution(String unit) {
    return executions().stream()
        .filter(e -> e.unit().equals(unit) && !e.rollback())
        .findFirst()
        .orElseThrow();
  }

  String name(String unit) {
    return execution(unit).name();
  }

  /** Step Functions' status of each execution, by name. */
  Map<String, String> sfnStatuses() {
    Map<String, String> statuses = new HashMap<>();
    for (ExecutionListItem item : listExecutions()) {
      statuses.put(item.name(), item.statusAsString());
    }
    return statuses;
  }

  /** The output status of each execution that ended SUCCEEDED, by name. */
  Map<String, String> flowOutcomes() {
    Map<String, String> outcomes = new HashMap<>();
    for (DescribeExecutionResponse end : ended.values()) {
      if (end.output() != null) {
        outcomes.put(end.name(), json(end.output()).path("status").asText());
      }
    }
    return outcomes;
  }

  /** Where terra-run checks the repository out: the units' state files live there. */
  Path workspace() {
    return dir.resolve("terra-run");
  }

  @Override
  public void close() {
    github.close();
    sfn.close();
    ecs.close();
    sns.close();
    sqs.close();
    s3.close();
    ssm.close();
    ses.close();
  }

  private static byte[] emptyZip() {
    ByteArrayOutputStream zip = new ByteArrayOutputStream();
    try (ZipOutputStream entries = new ZipOutputStream(zip)) {
      entries.putNextEntry(new ZipEntry("README"));
      entries.write("moto runs no Lambda code".getBytes(StandardCharsets.UTF_8));
      entries.closeEntry();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return zip.toByteArray();
  }

  private static ObjectNode functionUrlEvent(String method) {
    ObjectNode event = JSON.createObjectNode();
    event.put("version", "2.0");
    event.put("rawPath", VoteDesk.PATH);
    event.putObject("requestContext").putObject("http").put("method", method);
    return event;
  }

  /**
   * moto's model dump of the mail SES sent and the trigger invocations moto recorded, the two
   * services this harness reads: the dump of every service (moto's default) read every Step
   * Functions execution, S3 object and ECS task, and took moto seconds of CPU a round, most of a
   * deployment's time (moto_launcher.py's patch 9). Building it races with moto's own threads (an
   * ECS task's network interface appeared between its check and its dump, and the dump answered
   * 500), so a 500 is asked again, a few times.
   */
  private JsonNode motoData() {
    try {
      HttpResponse<String> response = null;
      for (int attempt = 0; attempt < 5; attempt++) {
        response =
            http.send(
                HttpRequest.newBuilder(
                        moto.endpoint()
                            .resolve(
                                URI.create(
                                    "/moto-api/data.json?service=ses&service=awslambda_simple")))
                    .GET()
                    .build(),
                HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() == 200) {
          return JSON.readTree(response.body());
        }
        Thread.sleep(100);
      }
      throw new IllegalStateException(
          "moto's /moto-api/data.json answered " + response.statusCode() + " five times");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  static JsonNode json(String text) {
    try {
      return JSON.readTree(text);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static void pause() {
    try {
      Thread.sleep(POLL_MILLIS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }
}
