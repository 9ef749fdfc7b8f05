package io.livegate.tests.aws;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.livegate.aws.AwsEngine;
import io.livegate.aws.EcsPullRequestPlanner;
import io.livegate.aws.EcsScanLauncher;
import io.livegate.core.deploy.MergedPullRequest;
import io.livegate.core.pr.PullRequestHead;
import io.livegate.core.webhook.WebhookSignature;
import io.livegate.lambdas.SnapStartPriming;
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
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.UUID;
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

/**
 * The webhook receiver and the trigger as their wiring builds them from the environment, against
 * moto (SSM, ECS, Secrets Manager) and an embedded metadb: a merge takes the SSM lock and starts
 * create-deploy-stack on ECS with the merge as its argv; a second merge waits; a failed scan hands
 * the lock and the task to the second.
 */
@Tag("moto")
class WebhookAwsTest {
  @RegisterExtension static final MotoServer MOTO = new MotoServer();

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String LOCK = "/livegate/merge-lock";

  private final EcsClient ecs = MOTO.client(EcsClient.builder());
  private final SsmClient ssm = MOTO.client(SsmClient.builder());
  private String cluster;
  private WebhookHandler webhook;
  private TriggerHandler trigger;
  private Map<String, String> env;

  @BeforeEach
  void wire() throws Exception {
    MOTO.reset();
    env = MOTO.wiringEnvironment();

    env.put(RuntimeContract.Metadb.URL, EmbeddedMetadb.freshUrl());
    env.put(RuntimeContract.Metadb.USER, EmbeddedMetadb.USER);

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
    env.put(RuntimeContract.Webhook.REPOSITORY, Webhooks.REPOSITORY);
    env.put(RuntimeContract.Webhook.TRUNK, Webhooks.TRUNK);
    WebhookWiring webhookWiring = WebhookWiring.fromEnvironment(env);
    AwsEngine engine = AwsEngine.fromEnvironment(env);
    // As under SnapStart, the handlers serve their events after priming (dry calls, no requests).
    webhookWiring.prime();
    SnapStartPriming.prime(engine.aws(), engine.metadb());
    webhook = new WebhookHandler(webhookWiring::receiver);
    trigger = new TriggerHandler(TriggerHandler.parts(engine));
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

  private JsonNode deliver(ObjectNode payload) throws IOException {
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
    webhook.handleRequest(
        new ByteArrayInputStream(event.toString().getBytes(StandardCharsets.UTF_8)), out, null);
    return JSON.readTree(out.toByteArray());
  }

  private JsonNode lockHolder() throws IOException {
    return JSON.readTree(ssm.getParameter(r -> r.name(LOCK)).parameter().value());
  }

  private static MergedPullRequest merge(ObjectNode payload) {
    JsonNode pr = payload.get("pull_request");
    return new MergedPullRequest(
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
    webhook = new WebhookHandler(wiring::receiver);
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
