package io.livegate.tests.aws;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.livegate.aws.AwsEngine;
import io.livegate.aws.EcsPullRequestPlanner;
import io.livegate.aws.EcsScanLauncher;
import io.livegate.aws.Watchdog;
import io.livegate.core.deploy.CommitStatusPublisher;
import io.livegate.core.deploy.MergedPullRequest;
import io.livegate.core.pr.PullRequestHead;
import io.livegate.core.testing.RecordingStatuses;
import io.livegate.lambdas.SnapStartPriming;
import io.livegate.lambdas.admin.AdminHandler;
import io.livegate.lambdas.trigger.TriggerHandler;
import io.livegate.lambdas.webhook.WebhookHandler;
import io.livegate.lambdas.webhook.WebhookWiring;
import io.livegate.sql.testing.EmbeddedMetadb;
import io.livegate.sql.testing.Webhooks;
import io.livegate.statemachine.RuntimeContract;
import io.livegate.statemachine.TriggerEvent;
import io.livegate.tests.moto.MotoServer;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import software.amazon.awssdk.services.ecs.EcsClient;
import software.amazon.awssdk.services.ecs.model.Compatibility;
import software.amazon.awssdk.services.ecs.model.NetworkMode;
import software.amazon.awssdk.services.ecs.model.Task;
import software.amazon.awssdk.services.secretsmanager.SecretsManagerClient;
import software.amazon.awssdk.services.ssm.SsmClient;
import software.amazon.awssdk.services.ssm.model.ParameterNotFoundException;
import software.amazon.awssdk.services.ssm.model.ParameterType;

/**
 * The webhook receiver and the trigger as their wiring builds them from the environment, against
 * moto (SSM, ECS, Secrets Manager) and an embedded metadb: a merge takes the SSM lock and starts
 * create-deploy-stack on ECS with the merge as its argv; a second merge waits; a failed scan hands
 * the lock and the task to the second. The admin Lambda's handler, wired from the same environment,
 * shows, retries, aborts and releases what is stuck.
 */
@Tag("moto")
class WebhookAwsTest {
  @RegisterExtension static final MotoServer MOTO = new MotoServer();

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String LOCK = "/livegate/merge-lock";
  private static final String GITHUB_TOKEN = "/livegate/github-token";
  private static final String TRIGGER_FUNCTION = MotoDeployment.TRIGGER_FUNCTION;

  private final EcsClient ecs = MOTO.client(EcsClient.builder());
  private final SsmClient ssm = MOTO.client(SsmClient.builder());
  private String cluster;
  private WebhookHandler webhook;
  private TriggerHandler trigger;
  private final GitHubApi github = new GitHubApi();
  private int playedInvocations;
  private AwsEngine engine;
  private AdminHandler admin;
  private Map<String, String> env;

  @BeforeEach
  void wire() throws Exception {
    MOTO.reset();
    env = MOTO.wiringEnvironment();

    env.put(RuntimeContract.Metadb.URL, EmbeddedMetadb.freshUrl());
    env.put(RuntimeContract.Metadb.USER, EmbeddedMetadb.USER);
    // where the admin Lambda's status reads the execution logs (none are read here)
    env.put(RuntimeContract.Artifacts.PLAN_BUCKET, "livegate-artifacts");

    try (SecretsManagerClient secrets = MOTO.client(SecretsManagerClient.builder())) {
      env.put(
          RuntimeContract.Webhook.WEBHOOK_SECRET,
          secrets
              .createSecret(r -> r.name("livegate/webhook").secretString(Webhooks.SECRET))
              .arn());
    }
    cluster = ecs.createCluster(r -> r.clusterName("livegate")).cluster().clusterArn();
    String taskDefinition = taskDefinition("livegate-create-deploy-stack");
    env.put(
        RuntimeContract.PullRequestPlans.TASK_DEFINITION,
        taskDefinition("livegate-pr-plan-dispatch"));
    MotoServer.Network network = MOTO.network();
    env.put(
        RuntimeContract.Engine.STATE_MACHINE,
        "arn:aws:states:us-east-1:123456789012:stateMachine:x");
    env.put(RuntimeContract.Engine.LOCK_PARAMETER, LOCK);
    env.put(RuntimeContract.Ecs.CLUSTER, cluster);
    env.put(RuntimeContract.Ecs.SUBNETS, network.subnetId());
    env.put(RuntimeContract.Ecs.SECURITY_GROUPS, network.securityGroupId());
    env.put(RuntimeContract.Scan.TASK_DEFINITION, taskDefinition);
    env.put(RuntimeContract.Watchdog.METRIC_NAMESPACE, "livegate/test");
    // GitHub as WireMock, with the token the engine reads from SSM, and the trigger as a moto
    // function, whose invocations (the statuses the webhook hands on) the tests play.
    ssm.putParameter(
        r -> r.name(GITHUB_TOKEN).type(ParameterType.SECURE_STRING).value(GitHubApi.TOKEN));
    env.put(RuntimeContract.GitHub.API_URL, github.url());
    env.put(RuntimeContract.GitHub.TOKEN_PARAMETER, GITHUB_TOKEN);
    env.put(RuntimeContract.Tasks.TRIGGER_FUNCTION, TRIGGER_FUNCTION);
    MotoDeployment.createTriggerFunction(MOTO);
    env.put(RuntimeContract.Webhook.REPOSITORY, Webhooks.REPOSITORY);
    env.put(RuntimeContract.Webhook.TRUNK, Webhooks.TRUNK);
    WebhookWiring webhookWiring = WebhookWiring.fromEnvironment(env);
    engine = AwsEngine.fromEnvironment(env);
    // As under SnapStart, the handlers serve their events after priming (dry calls, no requests).
    webhookWiring.prime();
    SnapStartPriming.prime(engine.aws(), engine.metadb());
    webhook = new WebhookHandler(webhookWiring::receiver, webhookWiring::handOnStatuses);
    trigger =
        new TriggerHandler(TriggerHandler.parts(engine), TriggerHandler.watchdog(engine, env));
    admin = new AdminHandler(engine, env);
  }

  private String taskDefinition(String family) {
    return ecs.registerTaskDefinition(
            r ->
                r.family(family)
                    .requiresCompatibilities(Compatibility.FARGATE)
                    .networkMode(NetworkMode.AWSVPC)
                    .cpu("1024")
                    .memory("2048")
                    .containerDefinitions(
                        c ->
                            c.name("tasks")
                                .image("livegate/ecs-tasks:test")
                                .cpu(1024)
                                .memory(2048)
                                .essential(true)))
        .taskDefinition()
        .taskDefinitionArn();
  }

  private JsonNode deliver(ObjectNode payload) {
    return MotoDeployment.deliver(webhook, payload);
  }

  /** The admin Lambda invoked with {@code request}, as Lambda's runtime calls its handler. */
  private JsonNode admin(String request) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    admin.handleRequest(
        new ByteArrayInputStream(request.getBytes(StandardCharsets.UTF_8)), out, null);
    return JSON.readTree(out.toByteArray());
  }

  private JsonNode lockHolder() throws IOException {
    return JSON.readTree(ssm.getParameter(r -> r.name(LOCK)).parameter().value());
  }

  private static MergedPullRequest merge(ObjectNode payload) {
    JsonNode pr = payload.get("pull_request");
    return MergedPullRequest.fromGitHub(
        Webhooks.REPOSITORY,
        pr.get("number").asInt(),
        pr.at("/base/ref").asText(),
        pr.at("/head/ref").asText(),
        pr.at("/base/sha").asText(),
        pr.get("merge_commit_sha").asText(),
        pr.at("/head/sha").asText(),
        pr.get("commits").asInt());
  }

  @Test
  void aMergeTakesTheSsmLockAndStartsCreateDeployStackWithTheMergeAsArgv() throws IOException {
    ObjectNode first = Webhooks.merged(7, Webhooks.sha(7));
    ((ObjectNode) first.get("pull_request").get("head")).put("ref", "feature/$(touch x) 'a b'");

    JsonNode response = deliver(first);

    assertThat(response.get("statusCode").asInt()).as(response.toString()).isEqualTo(200);
    assertThat(lockHolder().get("pullRequest").asInt()).isEqualTo(7);
    assertThat(lockHolder().get("mergeCommit").asText()).isEqualTo(Webhooks.sha(7));
    List<Task> tasks = MOTO.runningTasks(cluster);
    assertThat(tasks).hasSize(1);
    assertThat(tasks.get(0).overrides().containerOverrides())
        .singleElement()
        .satisfies(
            override -> {
              assertThat(override.name()).isEqualTo("tasks");
              assertThat(override.command()).isEqualTo(EcsScanLauncher.command(merge(first)));
              assertThat(override.command()).contains("--head-ref=feature/$(touch x) 'a b'");
            });
    assertThat(tasks.get(0).launchTypeAsString()).isEqualTo("FARGATE");
  }

  @Test
  void aSecondMergeWaitsAndAFailedScanHandsTheLockAndTheTaskToIt() throws IOException {
    deliver(Webhooks.merged(7, Webhooks.sha(7)));
    JsonNode second = deliver(Webhooks.merged(8, Webhooks.sha(8)));

    assertThat(second.get("statusCode").asInt()).isEqualTo(200);
    assertThat(second.get("body").asText()).startsWith("queued deployment 2 of pull request #8");
    assertThat(lockHolder().get("pullRequest").asInt()).isEqualTo(7);
    assertThat(MOTO.runningTasks(cluster)).hasSize(1);

    String answer = trigger.handle(JSON.readTree(TriggerEvent.scanFailed(1, "checkout failed")));

    assertThat(answer).isEqualTo("deployment 1 failed: checkout failed; started deployment 2");
    assertThat(lockHolder().get("pullRequest").asInt()).isEqualTo(8);
    assertThat(MOTO.runningTasks(cluster))
        .extracting(task -> task.overrides().containerOverrides().get(0).command())
        .contains(EcsScanLauncher.command(merge(Webhooks.merged(8, Webhooks.sha(8)))));

    // The same report again changes nothing: the lock stays with the second merge.
    trigger.handle(JSON.readTree(TriggerEvent.scanFailed(1, "checkout failed")));
    assertThat(lockHolder().get("pullRequest").asInt()).isEqualTo(8);
  }

  @Test
  void aMergeWhoseScanCouldNotStartGetsItLaunchedWhenGitHubRedeliversIt() throws IOException {
    // RunTask throws: the webhook names a create-deploy-stack revision ECS does not have yet.
    String family = "livegate-create-deploy-stack-next";
    env.put(
        RuntimeContract.Scan.TASK_DEFINITION,
        cluster.replace(":cluster/livegate", ":task-definition/" + family + ":1"));
    WebhookWiring wiring = WebhookWiring.fromEnvironment(env);
    webhook = new WebhookHandler(wiring::receiver, wiring::handOnStatuses);
    ObjectNode merge = Webhooks.merged(7, Webhooks.sha(7));

    JsonNode first = deliver(merge);

    assertThat(first.get("statusCode").asInt()).as(first.toString()).isEqualTo(503);
    assertThat(first.get("body").asText())
        .startsWith("not handled, redeliver it: cannot start create-deploy-stack of deployment 1");
    assertThat(lockHolder().get("pullRequest").asInt()).isEqualTo(7);
    assertThat(MOTO.runningTasks(cluster)).isEmpty();

    taskDefinition(family);
    JsonNode redelivered = deliver(merge);

    assertThat(redelivered.get("statusCode").asInt()).as(redelivered.toString()).isEqualTo(200);
    assertThat(redelivered.get("body").asText())
        .isEqualTo(
            "already queued deployment 1 of pull request #7; launched the scan of deployment 1"
                + " again\n");
    assertThat(MOTO.runningTasks(cluster))
        .singleElement()
        .satisfies(
            task ->
                assertThat(task.overrides().containerOverrides().get(0).command())
                    .isEqualTo(EcsScanLauncher.command(merge(merge))));
  }

  @Test
  void theAdminLambdaShowsAScanThatNeverStartedRetriesItAndAbortsItForTheNextMerge()
      throws IOException {
    // RunTask throws: the webhook names a create-deploy-stack revision ECS does not have yet.
    String family = "livegate-create-deploy-stack-next";
    env.put(
        RuntimeContract.Scan.TASK_DEFINITION,
        cluster.replace(":cluster/livegate", ":task-definition/" + family + ":1"));
    AwsEngine engine = AwsEngine.fromEnvironment(env);
    WebhookWiring next = WebhookWiring.fromEnvironment(env);
    webhook = new WebhookHandler(next::receiver, next::handOnStatuses);
    admin = new AdminHandler(engine, env);
    assertThat(deliver(Webhooks.merged(7, Webhooks.sha(7))).get("statusCode").asInt())
        .isEqualTo(503);
    assertThat(deliver(Webhooks.merged(8, Webhooks.sha(8))).get("statusCode").asInt())
        .isEqualTo(200);

    assertThat(admin("{\"command\": \"queue\"}").toString())
        .isEqualTo(
            JSON.createObjectNode()
                .<ObjectNode>set(
                    "lines",
                    JSON.createArrayNode()
                        .add(
                            Webhooks.REPOSITORY
                                + ": deployment 1 of pull request #7 holds the lock (running): its"
                                + " scan has not stored its units yet; if no scan runs, run"
                                + " livegate admin --aws retry-scan 1")
                        .add(
                            "  waiting: deployment 2 of pull request #8 (merge "
                                + Webhooks.sha(8).substring(0, 12)
                                + ")"))
                .put("done", true)
                .toString());
    assertThat(MOTO.runningTasks(cluster)).isEmpty();

    taskDefinition(family);
    JsonNode retried = admin("{\"command\": \"retry-scan\", \"deployment\": 1}");

    assertThat(retried.toString())
        .isEqualTo("{\"lines\":[\"launched the scan of deployment 1 again\"],\"done\":true}");
    assertThat(MOTO.runningTasks(cluster))
        .singleElement()
        .satisfies(
            task -> {
              assertThat(task.startedBy()).isEqualTo("livegate-1");
              assertThat(task.overrides().containerOverrides().get(0).command())
                  .isEqualTo(EcsScanLauncher.command(merge(Webhooks.merged(7, Webhooks.sha(7)))));
            });
    // A deployment that waits behind the lock has no scan to retry.
    assertThat(admin("{\"command\": \"retry-scan\", \"deployment\": 2}").toString())
        .isEqualTo(
            "{\"lines\":[\"deployment 2 is queued; it is scanned when it takes the lock\"],"
                + "\"done\":false}");

    // The scan hangs: the operator aborts the deployment, and the next merge takes the lock.
    JsonNode aborted =
        admin("{\"command\": \"abort\", \"deployment\": 1, \"reason\": \"its scan hangs\"}");

    assertThat(aborted.toString())
        .isEqualTo(
            "{\"lines\":[\"deployment 1 failed: aborted by an operator: its scan hangs; started"
                + " deployment 2\"],\"done\":true}");
    assertThat(lockHolder().get("pullRequest").asInt()).isEqualTo(8);
    assertThat(MOTO.runningTasks(cluster))
        .extracting(task -> task.overrides().containerOverrides().get(0).command())
        .contains(EcsScanLauncher.command(merge(Webhooks.merged(8, Webhooks.sha(8)))));
    // The same abort again is refused and leaves the lock with the next merge.
    JsonNode again = admin("{\"command\": \"abort\", \"deployment\": 1}");
    assertThat(again.get("done").asBoolean()).isFalse();
    assertThat(again.get("lines").get(0).asText())
        .isEqualTo(
            "deployment 1 is failed; only a running or rolling-back deployment can be aborted");
    assertThat(lockHolder().get("pullRequest").asInt()).isEqualTo(8);
    // An unknown deployment is an answer that did nothing; a malformed request an error.
    assertThat(admin("{\"command\": \"abort\", \"deployment\": 99}").toString())
        .isEqualTo("{\"lines\":[\"there is no deployment 99\"],\"done\":false}");
    assertThat(admin("{\"command\": \"abort\"}").toString())
        .isEqualTo("{\"error\":\"deployment must be an id (a whole number), not null\"}");
  }

  @Test
  void theAdminLambdaReleasesTheSsmLockThatAFinishedDeploymentLeftBehind() throws IOException {
    deliver(Webhooks.merged(7, Webhooks.sha(7)));
    String held = ssm.getParameter(r -> r.name(LOCK)).parameter().value();
    trigger.handle(JSON.readTree(TriggerEvent.scanFailed(1, "checkout failed")));
    // What a trigger that died between failing the deployment and releasing the lock leaves: the
    // SSM lock of a finished deployment, which keeps every pull request's merge-lock pending.
    ssm.putParameter(r -> r.name(LOCK).value(held).type("String").overwrite(true));
    assertThat(admin("{\"command\": \"queue\"}").get("lines").get(0).asText())
        .isEqualTo(Webhooks.REPOSITORY + ": the lock is free");

    JsonNode released =
        admin("{\"command\": \"release-lock\", \"repository\": \"" + Webhooks.REPOSITORY + "\"}");

    assertThat(released.toString())
        .isEqualTo(
            "{\"lines\":[\"released the lock of "
                + Webhooks.REPOSITORY
                + " that deployment 1 held\"],\"done\":true}");
    org.assertj.core.api.Assertions.assertThatThrownBy(this::lockHolder)
        .isInstanceOf(ParameterNotFoundException.class);
    assertThat(admin("{\"command\": \"release-lock\", \"repository\": \"live\"}").toString())
        .isEqualTo("{\"error\":\"repository must be OWNER/NAME, not live\"}");
  }

  @Test
  void aScanContainerKilledBeforeItReportedHandsTheLockAndTheTaskToTheNextMerge()
      throws IOException {
    deliver(Webhooks.merged(7, Webhooks.sha(7)));
    deliver(Webhooks.merged(8, Webhooks.sha(8)));
    Task scan = MOTO.runningTasks(cluster).get(0);
    assertThat(scan.startedBy()).isEqualTo("livegate-1");

    // The container is killed (out of memory) before it reports to the trigger; EventBridge's rule
    // on the cluster's stopped tasks delivers the stop.
    MOTO.stopTask(cluster, scan.taskArn(), 137);
    String answer = trigger.handle(MOTO.stoppedTaskEvent(cluster, scan.taskArn(), 137));

    assertThat(answer)
        .startsWith("deployment 1 failed: create-deploy-stack task " + scan.taskArn())
        .contains("stopped with exit code 137")
        .endsWith("before it reported; started deployment 2");
    assertThat(lockHolder().get("pullRequest").asInt()).isEqualTo(8);
    assertThat(MOTO.runningTasks(cluster))
        .extracting(task -> task.overrides().containerOverrides().get(0).command())
        .containsExactly(EcsScanLauncher.command(merge(Webhooks.merged(8, Webhooks.sha(8)))));

    // EventBridge delivers at least once: the same stop again keeps the lock with the second
    // merge. Healing launches its scan again, which ECS's client token makes the same task on AWS
    // (moto ignores client tokens, so it may list two tasks of the same scan).
    trigger.handle(MOTO.stoppedTaskEvent(cluster, scan.taskArn(), 137));
    assertThat(lockHolder().get("pullRequest").asInt()).isEqualTo(8);
    assertThat(MOTO.runningTasks(cluster))
        .extracting(task -> task.overrides().containerOverrides().get(0).command())
        .containsOnly(EcsScanLauncher.command(merge(Webhooks.merged(8, Webhooks.sha(8)))));
  }

  @Test
  void aScanTaskRunningPastItsTimeoutIsStoppedByTheScheduledWatchdogAndTheNextMergeTakesTheLock()
      throws IOException {
    deliver(Webhooks.merged(7, Webhooks.sha(7)));
    deliver(Webhooks.merged(8, Webhooks.sha(8)));
    Task scan = MOTO.runningTasks(cluster).get(0);
    // EventBridge's scheduled event, as the watchdog rule delivers it.
    ObjectNode tick = JSON.createObjectNode();
    tick.put("source", "aws.events");
    tick.put("detail-type", RuntimeContract.Watchdog.SCHEDULED_EVENT);
    tick.putObject("detail");

    String early =
        watchdogAt(
                scan.startedAt()
                    .plus(RuntimeContract.Watchdog.DEFAULT_SCAN_TIMEOUT)
                    .minusSeconds(60))
            .handle(tick);

    assertThat(early)
        .startsWith("watchdog: the merge lock is held for PT")
        .endsWith("; no scan ran past its timeout");
    assertThat(MOTO.runningTasks(cluster))
        .extracting(Task::taskArn)
        .containsExactly(scan.taskArn());

    String late =
        watchdogAt(
                scan.startedAt()
                    .plus(RuntimeContract.Watchdog.DEFAULT_SCAN_TIMEOUT)
                    .plusSeconds(60))
            .handle(tick);

    assertThat(late).endsWith("; stopped 1 scan(s) past the timeout: [" + scan.taskArn() + "]");
    Task stopped = ecs.describeTasks(r -> r.cluster(cluster).tasks(scan.taskArn())).tasks().get(0);
    assertThat(stopped.desiredStatus()).isEqualTo("STOPPED");
    assertThat(stopped.stoppedReason())
        .isEqualTo("livegate watchdog: create-deploy-stack ran past its timeout PT1H");
    // The stop reaches the trigger through the StoppedTasks rule like any dead scan.
    String answer = trigger.handle(MOTO.stoppedTaskEvent(cluster, scan.taskArn(), 143));
    assertThat(answer)
        .startsWith("deployment 1 failed: create-deploy-stack task " + scan.taskArn())
        .endsWith("started deployment 2");
    assertThat(lockHolder().get("pullRequest").asInt()).isEqualTo(8);
  }

  /** The trigger as production wires it, with its watchdog's clock at {@code now}. */
  private TriggerHandler watchdogAt(Instant now) {
    return new TriggerHandler(
        TriggerHandler.parts(engine),
        () -> Watchdog.fromEnvironment(engine.aws(), env, Clock.fixed(now, ZoneOffset.UTC)));
  }

  @Test
  void
      aMergeWith200OpenPullRequestsIsRecordedAndAnsweredBeforeAnyStatusIsPostedThenTheTriggerPostsThem()
          throws IOException {
    List<String> heads = new ArrayList<>();
    for (int number = 1001; number <= 1200; number++) {
      String head = Webhooks.sha(number);
      heads.add(head);
      engine
          .metadb()
          .pullRequests()
          .opened(
              new PullRequestHead(
                  Webhooks.REPOSITORY, number, Webhooks.TRUNK, Webhooks.sha(1), head, false),
              Instant.now());
    }

    JsonNode response = deliver(Webhooks.merged(7, Webhooks.sha(7)));

    // The durable step is done and answered: the merge holds the lock and its scan runs...
    assertThat(response.get("statusCode").asInt()).isEqualTo(200);
    assertThat(lockHolder().get("pullRequest").asInt()).isEqualTo(7);
    assertThat(MOTO.runningTasks(cluster)).hasSize(1);
    // ...without one call to GitHub, however many pull requests are open: the 200 merge-lock
    // statuses, each with its retries and rate-limit waits, would outlast GitHub's 10 s.
    assertThat(github.statuses().all()).isEmpty();
    List<JsonNode> handedOn = triggerInvocations();
    assertThat(handedOn)
        .isNotEmpty()
        .allSatisfy(
            event ->
                assertThat(event.has(TriggerEvent.POST_STATUSES)).as(event.toString()).isTrue());

    // Lambda runs the trigger with each event afterwards; it posts them.
    for (JsonNode event : handedOn) {
      assertThat(trigger.handle(event)).startsWith("posted ");
    }

    List<RecordingStatuses.Status> lockStatuses = github.statuses().of("livegate/merge-lock");
    assertThat(lockStatuses).extracting(RecordingStatuses.Status::sha).containsAll(heads);
    assertThat(lockStatuses)
        .filteredOn(status -> heads.contains(status.sha()))
        .extracting(RecordingStatuses.Status::state)
        .containsOnly(CommitStatusPublisher.State.PENDING);
  }

  /** The trigger's invocations since the last call, as moto recorded them. */
  private List<JsonNode> triggerInvocations() throws IOException {
    JsonNode invocations;
    try {
      invocations =
          JSON.readTree(
                  HttpClient.newHttpClient()
                      .send(
                          HttpRequest.newBuilder(
                                  MOTO.endpoint()
                                      .resolve("/moto-api/data.json?service=awslambda_simple"))
                              .build(),
                          HttpResponse.BodyHandlers.ofString())
                      .body())
              .path("awslambda_simple")
              .path("LambdaInvocation");
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException(e);
    }
    List<JsonNode> events = new ArrayList<>();
    for (; playedInvocations < invocations.size(); playedInvocations++) {
      JsonNode invocation = invocations.get(playedInvocations);
      assertThat(invocation.path("function_name").asText()).isEqualTo(TRIGGER_FUNCTION);
      assertThat(invocation.path("invocation_type").asText()).isEqualTo("Event");
      events.add(JSON.readTree(invocation.path("payload").asText()));
    }
    return events;
  }

  @AfterEach
  void stopGitHub() {
    github.close();
  }

  @Test
  void anOpenedPullRequestStartsPrPlanDispatchWithItsHeadAsArgv() throws IOException {
    ObjectNode opened = Webhooks.opened(12, Webhooks.sha(120));

    JsonNode response = deliver(opened);

    assertThat(response.get("statusCode").asInt()).isEqualTo(202);
    PullRequestHead head =
        new PullRequestHead(
            Webhooks.REPOSITORY,
            12,
            Webhooks.TRUNK,
            opened.at("/pull_request/base/sha").asText(),
            Webhooks.sha(120),
            false);
    assertThat(MOTO.runningTasks(cluster))
        .singleElement()
        .satisfies(
            task ->
                assertThat(task.overrides().containerOverrides().get(0).command())
                    .isEqualTo(EcsPullRequestPlanner.dispatchCommand(head)));
    org.assertj.core.api.Assertions.assertThatThrownBy(this::lockHolder)
        .isInstanceOf(ParameterNotFoundException.class);
  }

  @Test
  void aClosedPullRequestWithoutAMergeTakesNoLock() throws IOException {
    JsonNode response = deliver(Webhooks.payload("pull_request.closed"));

    assertThat(response.get("statusCode").asInt()).isEqualTo(200);
    assertThat(MOTO.runningTasks(cluster)).isEmpty();
    org.assertj.core.api.Assertions.assertThatThrownBy(this::lockHolder)
        .isInstanceOf(ParameterNotFoundException.class);
  }
}
