package io.livegate.tests.aws;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.livegate.cli.example.ExampleRepo;
import io.livegate.cli.process.ProcessCommandRunner;
import io.livegate.core.account.Accounts;
import io.livegate.core.account.AccountsFile;
import io.livegate.core.deploy.AdvanceDeployment;
import io.livegate.core.deploy.CastVote;
import io.livegate.core.deploy.CommitStatusPublisher;
import io.livegate.core.deploy.CreateDeployment;
import io.livegate.core.deploy.DeploymentStatus;
import io.livegate.core.deploy.Execution;
import io.livegate.core.deploy.ExecutionStatus;
import io.livegate.core.deploy.FailurePolicy;
import io.livegate.core.deploy.MergedPullRequest;
import io.livegate.core.deploy.RecordOutcome;
import io.livegate.core.deploy.ReleaseReadyExecutions;
import io.livegate.core.deploy.StartNextDeployment;
import io.livegate.core.deploy.StatusTexts;
import io.livegate.core.deploy.Vote;
import io.livegate.core.flow.RequestVotes;
import io.livegate.core.flow.VoteDesk;
import io.livegate.core.flow.VoteLinks;
import io.livegate.core.repo.Checkout;
import io.livegate.core.runner.RunnerKind;
import io.livegate.core.scan.GraphScan;
import io.livegate.core.testing.RecordingStatuses;
import io.livegate.core.testing.TestRepo;
import io.livegate.lambdas.approval.ApprovalRequestHandler;
import io.livegate.lambdas.approval.ApprovalResponseHandler;
import io.livegate.lambdas.aws.EcsScanLauncher;
import io.livegate.lambdas.aws.EcsTasks;
import io.livegate.lambdas.aws.PlanArtifacts;
import io.livegate.lambdas.aws.SesMailer;
import io.livegate.lambdas.aws.SfnFlows;
import io.livegate.lambdas.aws.SfnTaskTokens;
import io.livegate.lambdas.aws.SsmMergeLock;
import io.livegate.lambdas.trigger.TriggerHandler;
import io.livegate.sql.Metadb;
import io.livegate.sql.testing.EmbeddedMetadb;
import io.livegate.statemachine.DeployFlow;
import io.livegate.tasks.CreateDeployStackJob;
import io.livegate.tasks.TerraRunJob;
import io.livegate.tasks.TriggerEvents;
import io.livegate.tests.moto.MotoServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.services.ecs.EcsClient;
import software.amazon.awssdk.services.ecs.model.Compatibility;
import software.amazon.awssdk.services.ecs.model.ContainerOverride;
import software.amazon.awssdk.services.ecs.model.NetworkMode;
import software.amazon.awssdk.services.ecs.model.Task;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.sesv2.SesV2Client;
import software.amazon.awssdk.services.sfn.SfnClient;
import software.amazon.awssdk.services.sfn.model.DescribeExecutionResponse;
import software.amazon.awssdk.services.sfn.model.ExecutionListItem;
import software.amazon.awssdk.services.sns.SnsClient;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.Message;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;
import software.amazon.awssdk.services.ssm.SsmClient;

/**
 * The deploy flow on AWS, end to end against moto: the real ASL runs in moto's Step Functions; the
 * test plays the ECS containers (terra-run with real git and terraform), the approval topic's
 * Lambda subscription, the voters' clicks on their mailed links, and EventBridge's status-change
 * rule that invokes the trigger. Everything else is the production code: the handlers, the jobs,
 * the AWS adapters and the metadb on an embedded PostgreSQL.
 */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class AwsDeployFlowTest {
  @RegisterExtension static final MotoServer MOTO = new MotoServer();

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String ROLE = "arn:aws:iam::123456789012:role/livegate-deploy-flow";
  private static final String REPOSITORY = "acme/live";
  private static final String LOCK_PARAMETER = "/livegate/merge-lock";
  private static final String MAIL_FROM = "livegate@example.com";
  private static final String VOTE_BASE_URL = "https://vote.example.com";
  private static final String BUCKET = "livegate-plans";
  private static final String LOG_URL = "https://logs.example.com/terra-run";
  private static final byte[] VOTE_KEY =
      "a vote-link key of at least thirty-two bytes".getBytes(StandardCharsets.UTF_8);
  private static final Pattern VOTE_TOKEN = Pattern.compile("/vote\\?t=([A-Za-z0-9_.%\\-]+)");
  private static final Duration DRIVE_LIMIT = Duration.ofSeconds(90);

  private static final String APPS_ACCOUNTS =
      """
      account "apps" {
        path           = "app"
        voters         = ["ops@example.com"]
        min_approvals  = 1
        min_rejections = 1
      }
      """;

  @TempDir Path dir;

  private final SfnClient sfn = MOTO.client(SfnClient.builder());
  private final EcsClient ecs = MOTO.client(EcsClient.builder());
  private final SnsClient sns = MOTO.client(SnsClient.builder());
  private final SqsClient sqs = MOTO.client(SqsClient.builder());
  private final S3Client s3 = MOTO.client(S3Client.builder());
  private final SsmClient ssm = MOTO.client(SsmClient.builder());
  private final SesV2Client ses = MOTO.client(SesV2Client.builder());
  private final HttpClient http = HttpClient.newHttpClient();

  @BeforeEach
  void resetMoto() {
    MOTO.reset();
  }

  @AfterEach
  void closeClients() {
    sfn.close();
    ecs.close();
    sns.close();
    sqs.close();
    s3.close();
    ssm.close();
    ses.close();
  }

  @Test
  void referenceScenarioRunsEveryUnitInOrderAndReleasesTheLock() {
    Path live = dir.resolve("live");
    ExampleRepo.Commits commits = ExampleRepo.create(live);
    Flow flow =
        new Flow(
            live,
            commits.base(),
            commits.head(),
            read(live.resolve(ExampleRepo.ACCOUNTS_FILE)),
            Duration.ofMinutes(10),
            3600);

    flow.deploy();
    flow.drive(execution -> Vote.Choice.APPROVE);

    List<Execution> executions = flow.executions();
    assertThat(executions).hasSize(10);
    assertThat(executions)
        .allSatisfy(e -> assertThat(e.status()).isEqualTo(ExecutionStatus.SUCCEEDED));
    assertThat(flow.deploymentStatus()).isEqualTo(DeploymentStatus.SUCCEEDED);
    assertThat(flow.sfnStatuses())
        .hasSize(10)
        .allSatisfy((name, s) -> assertThat(s).isEqualTo("SUCCEEDED"));
    assertThat(flow.flowOutcomes())
        .hasSize(10)
        .allSatisfy((name, s) -> assertThat(s).isEqualTo("succeeded"));
    Map<Long, Execution> byId =
        executions.stream().collect(Collectors.toMap(Execution::id, Function.identity()));
    for (Execution execution : executions) {
      for (long dependency : execution.dependsOn()) {
        assertThat(execution.startedAt())
            .as("%s starts after %s", execution.unit(), byId.get(dependency).unit())
            .isAfterOrEqualTo(byId.get(dependency).finishedAt());
      }
    }
    Instant sharedDone =
        executions.stream()
            .filter(e -> e.unit().startsWith("shared-services-account/"))
            .map(Execution::finishedAt)
            .max(Comparator.naturalOrder())
            .orElseThrow();
    assertThat(executions.stream().filter(e -> e.unit().startsWith("dev-account/")))
        .hasSize(5)
        .allSatisfy(e -> assertThat(e.startedAt()).as(e.unit()).isAfterOrEqualTo(sharedDone));
    assertThat(flow.lock.current()).isEmpty();
    for (Execution execution : executions) {
      assertThat(flow.commitStatuses.of(StatusTexts.deployContext(execution.unit(), false)))
          .extracting(s -> s.state() + " " + s.description() + " " + s.targetUrl())
          .containsExactly(
              "PENDING planning " + LOG_URL,
              "PENDING planned +1 ~0 -0, new providers terraform.io/builtin/terraform;"
                  + " waiting for the vote "
                  + LOG_URL,
              "PENDING applying " + LOG_URL,
              "SUCCESS applied +1 ~0 -0, new providers terraform.io/builtin/terraform " + LOG_URL);
    }
    assertThat(flow.commitStatuses.of(StatusTexts.DEPLOY))
        .singleElement()
        .satisfies(
            s -> {
              assertThat(s.sha()).isEqualTo(flow.head);
              assertThat(s.description())
                  .isEqualTo("deployment " + flow.deploymentId + ": 10 units");
            });
  }

  @Test
  void aRejectedUnitAbortsItsDependentsWhileIndependentUnitsSucceed() {
    Flow flow = appsFlow(false, Duration.ofMinutes(10), 3600);

    flow.deploy();
    flow.drive(e -> e.unit().equals("app/b") ? Vote.Choice.REJECT : Vote.Choice.APPROVE);

    assertThat(flow.statuses())
        .containsExactlyInAnyOrderEntriesOf(
            Map.of(
                "app/a", ExecutionStatus.SUCCEEDED,
                "app/b", ExecutionStatus.REJECTED,
                "app/c", ExecutionStatus.ABORTED,
                "app/d", ExecutionStatus.SUCCEEDED));
    assertThat(flow.deploymentStatus()).isEqualTo(DeploymentStatus.REJECTED);
    assertThat(flow.flowOutcomes())
        .containsExactlyInAnyOrderEntriesOf(
            Map.of(
                flow.name("app/a"), "succeeded",
                flow.name("app/b"), "rejected",
                flow.name("app/d"), "succeeded"));
    assertThat(flow.lock.current()).isEmpty();
  }

  @Test
  void duplicateStatusChangesAndARepeatedDeploymentCreatedChangeNothing() {
    Flow flow = appsFlow(false, Duration.ofMinutes(10), 3600);
    flow.deliveries = 2;

    flow.deploy();
    flow.drive(e -> e.unit().equals("app/b") ? Vote.Choice.REJECT : Vote.Choice.APPROVE);
    Map<String, ExecutionStatus> statuses = flow.statuses();
    Map<String, String> sfnStatuses = flow.sfnStatuses();

    flow.trigger.handle(
        JSON.createObjectNode().put(TriggerHandler.DEPLOYMENT_CREATED, flow.deploymentId));
    flow.redeliverEveryEnd();
    flow.redeliverEveryEnd();

    assertThat(flow.statuses()).isEqualTo(statuses);
    assertThat(flow.sfnStatuses()).isEqualTo(sfnStatuses).hasSize(3);
    assertThat(flow.deploymentStatus()).isEqualTo(DeploymentStatus.REJECTED);
    assertThat(MOTO.runningTasks(flow.cluster)).isEmpty();
    assertThat(flow.lock.current()).isEmpty();
  }

  @Test
  void noVoteWithinTheApprovalTimeoutIsARejection() {
    Flow flow = appsFlow(false, Duration.ofSeconds(3), 3600);

    flow.deploy();
    flow.drive(e -> e.unit().equals("app/a") ? null : Vote.Choice.APPROVE);

    assertThat(flow.statuses())
        .containsExactlyInAnyOrderEntriesOf(
            Map.of(
                "app/a", ExecutionStatus.REJECTED,
                "app/b", ExecutionStatus.ABORTED,
                "app/c", ExecutionStatus.ABORTED,
                "app/d", ExecutionStatus.SUCCEEDED));
    assertThat(flow.sfnStatuses().get(flow.name("app/a"))).isEqualTo("SUCCEEDED");
    assertThat(flow.flowOutcomes().get(flow.name("app/a"))).isEqualTo("rejected");
    assertThat(flow.deploymentStatus()).isEqualTo(DeploymentStatus.REJECTED);
  }

  @Test
  void aFlowThatTimesOutIsRecordedAsFailed() {
    Path live = dir.resolve("live");
    TestRepo repo = TestRepo.create(live);
    repo.write("README.md", "apps\n");
    String base = repo.commit("empty");
    unit(repo, "a", null, "");
    String head = repo.commit("add a");
    Flow flow = new Flow(live, base, head, APPS_ACCOUNTS, Duration.ofMinutes(10), 3);

    flow.deploy();
    flow.drive(e -> null);

    assertThat(flow.sfnStatuses()).containsExactly(Map.entry(flow.name("app/a"), "TIMED_OUT"));
    assertThat(flow.statuses()).containsExactly(Map.entry("app/a", ExecutionStatus.FAILED));
    assertThat(flow.deploymentStatus()).isEqualTo(DeploymentStatus.FAILED);
    assertThat(flow.lock.current()).isEmpty();
  }

  @Test
  void aFailedApplyFailsItsUnitAndAbortsItsDependents() {
    Flow flow = appsFlow(true, Duration.ofMinutes(10), 3600);

    flow.deploy();
    flow.drive(e -> Vote.Choice.APPROVE);

    Map<String, ExecutionStatus> normal =
        flow.executions().stream()
            .filter(e -> !e.rollback())
            .collect(Collectors.toMap(Execution::unit, Execution::status));
    assertThat(normal)
        .containsExactlyInAnyOrderEntriesOf(
            Map.of(
                "app/a", ExecutionStatus.SUCCEEDED,
                "app/b", ExecutionStatus.FAILED,
                "app/c", ExecutionStatus.ABORTED,
                "app/d", ExecutionStatus.SUCCEEDED));
    assertThat(flow.flowOutcomes().get(flow.name("app/b"))).isEqualTo("failed");
    assertThat(flow.commitStatuses.of(StatusTexts.deployContext("app/b", false)))
        .last()
        .satisfies(
            s -> {
              assertThat(s.state()).isEqualTo(CommitStatusPublisher.State.FAILURE);
              assertThat(s.description())
                  .isEqualTo("apply failed: Error: Resource postcondition failed");
            });
    assertThat(
            flow.deploymentStatus().isFinished()
                || flow.deploymentStatus() == DeploymentStatus.ROLLBACK_FAILED)
        .isTrue();
    assertThat(flow.deploymentStatus()).isNotEqualTo(DeploymentStatus.SUCCEEDED);
    assertThat(flow.lock.current()).isEmpty();
  }

  /**
   * Four units of one account: a; b on a; c on b; d on nobody. With {@code failingApply}, b's apply
   * fails on a postcondition over a value known only after apply.
   */
  private Flow appsFlow(boolean failingApply, Duration approvalTimeout, long flowTimeoutSeconds) {
    Path live = dir.resolve("live");
    TestRepo repo = TestRepo.create(live);
    repo.write("README.md", "apps\n");
    String base = repo.commit("empty");
    unit(repo, "a", null, "");
    unit(
        repo,
        "b",
        "a",
        failingApply
            ? """
              lifecycle {
                postcondition {
                  condition     = self.output != "b"
                  error_message = "b refuses its own output"
                }
              }
            """
            : "");
    unit(repo, "c", "b", "");
    unit(repo, "d", null, "");
    String head = repo.commit("add the apps");
    return new Flow(live, base, head, APPS_ACCOUNTS, approvalTimeout, flowTimeoutSeconds);
  }

  private static void unit(TestRepo repo, String name, String dependency, String extra) {
    repo.write(
        "app/" + name + "/terragrunt.hcl",
        dependency == null
            ? "inputs = {}\n"
            : "dependency \""
                + dependency
                + "\" {\n  config_path = \"../"
                + dependency
                + "\"\n}\n");
    repo.write(
        "app/" + name + "/main.tf",
        "resource \"terraform_data\" \"this\" {\n  input = \"" + name + "\"\n" + extra + "}\n");
  }

  /** One deployment on moto: the resources, the production parts, and the harness's loop. */
  private final class Flow {
    final Path live;
    final String base;
    final String head;
    final Accounts accounts;
    final Metadb metadb = EmbeddedMetadb.fresh();
    final String cluster;
    final String stateMachineArn;
    final String queueUrl;
    final SsmMergeLock lock = new SsmMergeLock(ssm, LOCK_PARAMETER);
    final TriggerHandler trigger;
    final ApprovalRequestHandler approvalRequests;
    final ApprovalResponseHandler approvalResponses;
    final TerraRunJob terraRun;
    final RecordingStatuses commitStatuses = new RecordingStatuses();
    final VoteLinks links = new VoteLinks(VOTE_KEY);
    final Set<String> handledTasks = new HashSet<>();
    final Set<String> seenMails = new HashSet<>();
    final Set<Long> voted = new HashSet<>();
    final Map<String, DescribeExecutionResponse> ended = new LinkedHashMap<>();
    int deliveries = 1;
    long deploymentId;

    Flow(
        Path live,
        String base,
        String head,
        String accountsText,
        Duration approvalTimeout,
        long flowTimeoutSeconds) {
      this.live = live;
      this.base = base;
      this.head = head;
      this.accounts = AccountsFile.parse("livegate.hcl", accountsText);
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
      MotoServer.Network network = MOTO.network();
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
      Map<DeployFlow.Substitution, String> values = new EnumMap<>(DeployFlow.Substitution.class);
      values.put(DeployFlow.Substitution.CLUSTER_ARN, cluster);
      values.put(DeployFlow.Substitution.TERRA_RUN_PLAN_TASK_DEFINITION_ARN, taskDefinition);
      values.put(DeployFlow.Substitution.TERRA_RUN_APPLY_TASK_DEFINITION_ARN, taskDefinition);
      values.put(DeployFlow.Substitution.TERRA_RUN_CONTAINER_NAME, DeployFlow.TERRA_RUN);
      values.put(DeployFlow.Substitution.SUBNET_IDS, network.subnetId());
      values.put(DeployFlow.Substitution.SECURITY_GROUP_IDS, network.securityGroupId());
      values.put(DeployFlow.Substitution.APPROVAL_TOPIC_ARN, topicArn);
      String definition = DeployFlow.render(values, flowTimeoutSeconds);
      stateMachineArn =
          sfn.createStateMachine(r -> r.name("deploy-flow").roleArn(ROLE).definition(definition))
              .stateMachineArn();

      SfnTaskTokens tokens = new SfnTaskTokens(sfn);
      PlanArtifacts plans = new PlanArtifacts(s3, BUCKET);
      StartNextDeployment startNext =
          new StartNextDeployment(metadb.deployments(), metadb.executions(), clock);
      AdvanceDeployment advance =
          new AdvanceDeployment(
              metadb.deployments(),
              metadb.executions(),
              new ReleaseReadyExecutions(metadb.deployments(), metadb.executions(), clock),
              new RecordOutcome(
                  metadb.deployments(),
                  metadb.executions(),
                  startNext,
                  FailurePolicy.ABORT_DEPENDENTS,
                  RunnerKind.TERRAFORM,
                  clock),
              startNext,
              new SfnFlows(sfn, stateMachineArn, approvalTimeout),
              new EcsScanLauncher(
                  new EcsTasks(
                      ecs,
                      cluster,
                      List.of(network.subnetId()),
                      List.of(network.securityGroupId()),
                      DeployFlow.TERRA_RUN),
                  taskDefinition),
              lock,
              clock);
      trigger = new TriggerHandler(() -> advance);
      RequestVotes requestVotes =
          new RequestVotes(
              metadb.executions(),
              metadb.deployments(),
              links,
              new SesMailer(ses, MAIL_FROM),
              tokens,
              new RequestVotes.Settings(VOTE_BASE_URL, approvalTimeout, false),
              clock);
      approvalRequests = new ApprovalRequestHandler(() -> requestVotes);
      ApprovalResponseHandler.Parts parts =
          new ApprovalResponseHandler.Parts(
              new VoteDesk(
                  links,
                  new CastVote(metadb.votes(), clock),
                  metadb.executions(),
                  execution ->
                      execution.planArtifact() == null
                          ? "(not planned yet)"
                          : plans.text(execution.planArtifact()),
                  clock),
              metadb.executions(),
              tokens);
      approvalResponses = new ApprovalResponseHandler(() -> parts);
      // The workspace persists between Plan and Apply and across units: it stands in for the units'
      // remote backend (S3 in production), since the example's units keep local state files and
      // read their dependencies' outputs from them.
      terraRun =
          new TerraRunJob(
              metadb.deployments(),
              metadb.executions(),
              plans,
              tokens,
              new Checkout(live.toString(), Optional.empty()),
              commitStatuses,
              new ProcessCommandRunner(line -> {}),
              RunnerKind.TERRAFORM,
              dir.resolve("terra-run"),
              Map.of(),
              LOG_URL,
              System.out::println,
              clock);
    }

    /** create-deploy-stack, whose trigger invocation is the trigger handler, in process. */
    void deploy() {
      Clock clock = Clock.systemUTC();
      MergedPullRequest merge = new MergedPullRequest(REPOSITORY, 1, "main", "change", base, head);
      CreateDeployStackJob job =
          new CreateDeployStackJob(
              metadb.deployments(),
              new CreateDeployment(
                  metadb.deployments(),
                  new StartNextDeployment(metadb.deployments(), metadb.executions(), clock),
                  clock),
              new GraphScan(message -> {})::run,
              new Checkout(live.toString(), Optional.empty()),
              accounts,
              RunnerKind.TERRAFORM,
              commitStatuses,
              new TriggerEvents() {
                @Override
                public void deploymentCreated(long id) {
                  deploymentId = id;
                  trigger.handle(json(TriggerHandler.deploymentCreated(id)));
                }

                @Override
                public void scanFailed(long id, String reason) {
                  throw new AssertionError("the scan of deployment " + id + " failed: " + reason);
                }
              },
              dir.resolve("create-deploy-stack"),
              "",
              System.out::println,
              clock);
      assertThat(job.run(merge)).isZero();
      assertThat(deploymentId).isPositive();
    }

    /**
     * Plays the containers, the approval topic's Lambda, the voters and EventBridge until the
     * deployment is finished and no flow runs. {@code votes} answers a unit's vote; null for none.
     */
    void drive(Function<Execution, Vote.Choice> votes) {
      Instant deadline = Instant.now().plus(DRIVE_LIMIT);
      while (true) {
        boolean busy = playTasks() | requestApprovals() | vote(votes) | deliverEnds();
        if (!busy && deploymentStatus().isFinished() && runningFlows() == 0) {
          return;
        }
        if (Instant.now().isAfter(deadline)) {
          throw new AssertionError(
              "the deployment did not finish within "
                  + DRIVE_LIMIT
                  + ": "
                  + deploymentStatus()
                  + " "
                  + statuses()
                  + " flows "
                  + sfnStatuses());
        }
        if (!busy) {
          sleep(200);
        }
      }
    }

    private boolean playTasks() {
      boolean busy = false;
      for (Task task : MOTO.runningTasks(cluster)) {
        if (!handledTasks.add(task.taskArn())) {
          continue;
        }
        busy = true;
        ContainerOverride override = task.overrides().containerOverrides().get(0);
        Map<String, String> env = MOTO.taskEnvironment(cluster, task.taskArn());
        long executionId = Long.parseLong(env.get(DeployFlow.EXECUTION_ID_ENV));
        List<String> command = override.command();
        int exitCode;
        if (command.equals(List.of("terra-run", DeployFlow.PLAN_MODE))) {
          exitCode = terraRun.plan(executionId, env.get(DeployFlow.TASK_TOKEN_ENV));
        } else if (command.equals(List.of("terra-run", DeployFlow.APPLY_MODE))) {
          exitCode = applyInContainer(executionId);
        } else {
          throw new AssertionError("unexpected task command " + command);
        }
        MOTO.stopTask(cluster, task.taskArn(), exitCode);
      }
      return busy;
    }

    /** An exception out of terra-run apply ends the container's main with a non-zero code. */
    private int applyInContainer(long executionId) {
      try {
        return terraRun.apply(executionId);
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

    /** Reads the mail that SES sent (moto keeps it) and clicks one voter's link per execution. */
    private boolean vote(Function<Execution, Vote.Choice> votes) {
      boolean busy = false;
      JsonNode sent = motoData().path("ses").path("Message");
      for (JsonNode mail : sent) {
        String id = mail.path("id").asText();
        if (!seenMails.add(id)) {
          continue;
        }
        busy = true;
        Map<Vote.Choice, String> tokens = new EnumMap<>(Vote.Choice.class);
        long executionId = -1;
        Matcher matcher = VOTE_TOKEN.matcher(mail.path("body").asText());
        while (matcher.find()) {
          String token = java.net.URLDecoder.decode(matcher.group(1), StandardCharsets.UTF_8);
          VoteLinks.Check check = links.check(token, Instant.now());
          if (check instanceof VoteLinks.Check.Valid valid) {
            tokens.put(valid.ballot().choice(), token);
            executionId = valid.ballot().executionId();
          }
        }
        assertThat(tokens).as("the links of mail %s", mail).hasSize(2);
        if (!voted.add(executionId)) {
          continue;
        }
        Execution execution = metadb.executions().find(executionId).orElseThrow();
        Vote.Choice choice = votes.apply(execution);
        if (choice == null) {
          continue;
        }
        String token = tokens.get(choice);
        ObjectNode get = functionUrlEvent("GET");
        get.put("rawQueryString", "t=" + URLEncoder.encode(token, StandardCharsets.UTF_8));
        assertThat(approvalResponses.handle(get).path("statusCode").asInt()).isEqualTo(200);
        ObjectNode post = functionUrlEvent("POST");
        post.put("body", "t=" + URLEncoder.encode(token, StandardCharsets.UTF_8));
        post.put("isBase64Encoded", false);
        JsonNode answer = approvalResponses.handle(post);
        assertThat(answer.path("statusCode").asInt()).as(answer.toString()).isEqualTo(200);
      }
      return busy;
    }

    private boolean deliverEnds() {
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

    private void deliver(DescribeExecutionResponse end) {
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

    private List<ExecutionListItem> listExecutions() {
      return sfn.listExecutions(r -> r.stateMachineArn(stateMachineArn).maxResults(100))
          .executions();
    }

    private long runningFlows() {
      return listExecutions().stream().filter(e -> e.statusAsString().equals("RUNNING")).count();
    }

    DeploymentStatus deploymentStatus() {
      return metadb.deployments().find(deploymentId).orElseThrow().status();
    }

    List<Execution> executions() {
      return metadb.executions().list(deploymentId);
    }

    Map<String, ExecutionStatus> statuses() {
      return executions().stream()
          .collect(Collectors.toMap(Execution::unit, Execution::status, (a, b) -> b, HashMap::new));
    }

    String name(String unit) {
      return executions().stream()
          .filter(e -> e.unit().equals(unit) && !e.rollback())
          .findFirst()
          .orElseThrow()
          .name();
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
  }

  private static ObjectNode functionUrlEvent(String method) {
    ObjectNode event = JSON.createObjectNode();
    event.put("version", "2.0");
    event.put("rawPath", VoteDesk.PATH);
    event.putObject("requestContext").putObject("http").put("method", method);
    return event;
  }

  private JsonNode motoData() {
    try {
      HttpResponse<String> response =
          http.send(
              HttpRequest.newBuilder(MOTO.endpoint().resolve(URI.create("/moto-api/data.json")))
                  .GET()
                  .build(),
              HttpResponse.BodyHandlers.ofString());
      return JSON.readTree(response.body());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  private static JsonNode json(String text) {
    try {
      return JSON.readTree(text);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static String read(Path file) {
    try {
      return java.nio.file.Files.readString(file);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }
}
