package io.livegate.lambdas.trigger;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.livegate.core.deploy.AdvanceDeployment;
import io.livegate.core.deploy.DeploymentStatus;
import io.livegate.core.deploy.MergedPullRequest;
import io.livegate.core.pr.LockScope;
import io.livegate.core.testing.RecordingStatuses;
import io.livegate.lambdas.Handlers;
import io.livegate.sql.testing.InMemoryFlowLauncher;
import io.livegate.sql.testing.InMemoryMergeLock;
import io.livegate.sql.testing.RecordingFlowCallback;
import io.livegate.sql.testing.RecordingScanLauncher;
import io.livegate.sql.testing.TestEngine;
import io.livegate.statemachine.DeployFlow;
import io.livegate.statemachine.RuntimeContract;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * EventBridge's "ECS Task State Change" for a task that stopped: one that died before reporting is
 * reported for it, so the merge lock is handed on instead of held until a timeout or forever. Over
 * a real metadb; Step Functions' task tokens and the scan launcher are recording fakes.
 */
class StoppedTaskTest {
  private static final String CLUSTER = "arn:aws:ecs:eu-west-1:123456789012:cluster/livegate";
  private static final MergedPullRequest FIRST = merge(7);
  private static final MergedPullRequest SECOND = merge(8);

  private final TestEngine engine = TestEngine.fresh();
  private final RecordingScanLauncher scans = new RecordingScanLauncher();
  private final InMemoryMergeLock lock = new InMemoryMergeLock();
  private final AdvanceDeployment advance = engine.advance(new InMemoryFlowLauncher(), scans, lock);
  private final RecordingFlowCallback tokens = new RecordingFlowCallback();
  private final TriggerHandler trigger =
      new TriggerHandler(
          () ->
              new TriggerHandler.Parts(
                  advance,
                  engine.gate(new RecordingStatuses(), LockScope.REPO),
                  engine.finalStatuses(new RecordingStatuses()),
                  tokens,
                  new RecordingStatuses()),
          TriggerHandlerTest::noWatchdog);

  private static MergedPullRequest merge(int number) {
    String sha = String.valueOf(number).repeat(40);
    return MergedPullRequest.fromGitHub(
        "acme/live", number, "main", "pr-" + number, sha, sha, sha, 1);
  }

  /** The event as EventBridge delivers it for a task of livegate's cluster. */
  private static ObjectNode stopped(
      String startedBy, List<String> command, Map<String, String> environment, Integer exitCode) {
    ObjectNode event = Handlers.JSON.createObjectNode();
    event.put("version", "0");
    event.put("detail-type", RuntimeContract.Events.TASK_STATE_CHANGE);
    event.put("source", "aws.ecs");
    ObjectNode detail = event.putObject("detail");
    detail.put("clusterArn", CLUSTER);
    detail.put("taskArn", CLUSTER.replace(":cluster/", ":task/") + "/0123abcd");
    detail.put("lastStatus", "STOPPED");
    detail.put("desiredStatus", "STOPPED");
    detail.put("startedBy", startedBy);
    detail.put("stopCode", "EssentialContainerExited");
    detail.put("stoppedReason", "Essential container in task exited");
    ObjectNode container = detail.putArray("containers").addObject().put("name", "tasks");
    if (exitCode != null) {
      container.put("exitCode", exitCode);
    }
    ObjectNode override = detail.putObject("overrides").putArray("containerOverrides").addObject();
    override.put("name", "tasks");
    ArrayNode argv = override.putArray("command");
    command.forEach(argv::add);
    ArrayNode env = override.putArray("environment");
    environment.forEach((name, value) -> env.addObject().put("name", name).put("value", value));
    return event;
  }

  @Test
  void aScanContainerKilledBeforeItReportedFailsItsDeploymentAndTheNextMergeTakesTheLock() {
    long first = advance.merged(FIRST).next().orElseThrow();
    advance.merged(SECOND);
    long second = engine.deployments.list("acme/live").get(1).id();

    String answer =
        trigger.handle(
            stopped(
                "livegate-" + first,
                List.of("create-deploy-stack", "--pull-request=7"),
                Map.of(),
                137));

    assertThat(answer)
        .isEqualTo(
            "deployment "
                + first
                + " failed: create-deploy-stack task "
                + CLUSTER.replace(":cluster/", ":task/")
                + "/0123abcd stopped with exit code 137: Essential container in task exited,"
                + " before it reported; started deployment "
                + second);
    assertThat(engine.deployments.find(first).orElseThrow().status())
        .isEqualTo(DeploymentStatus.FAILED);
    assertThat(lock.holder()).contains(SECOND);
    assertThat(scans.launched()).containsExactly(first, second);
  }

  @Test
  void aScanThatStoredItsStackBeforeStoppingChangesNothing() {
    long first = advance.merged(FIRST).next().orElseThrow();
    engine.deployments.create(
        FIRST, FIRST.baseCommit(), List.of(), Map.of(), java.time.Instant.now());

    String answer =
        trigger.handle(stopped("livegate-" + first, List.of("create-deploy-stack"), Map.of(), 0));

    assertThat(answer).endsWith("has its stack stored; a failed scan of it changes nothing");
    assertThat(engine.deployments.find(first).orElseThrow().status())
        .isEqualTo(DeploymentStatus.RUNNING);
  }

  @Test
  void aPlanTaskThatStoppedWithoutAnsweringItsTokenFailsItsFlowOnceAndAnAnsweredOneIsLeftAlone() {
    Map<String, String> environment =
        Map.of(DeployFlow.EXECUTION_ID_ENV, "41", DeployFlow.TASK_TOKEN_ENV, "token-41");
    ObjectNode event =
        stopped(
            "AWS Step Functions",
            List.of(DeployFlow.TERRA_RUN, DeployFlow.PLAN_MODE),
            environment,
            null);

    String first = trigger.handle(event);
    String again = trigger.handle(event);

    assertThat(first)
        .isEqualTo(
            "terra-run plan of execution 41 task "
                + CLUSTER.replace(":cluster/", ":task/")
                + "/0123abcd stopped before its container ran: Essential container in task"
                + " exited, before it reported: Plan runs once more, then its flow fails");
    assertThat(again)
        .isEqualTo("terra-run plan of execution 41 stopped after it reported; nothing to do");
    assertThat(tokens.answers())
        .first()
        .asString()
        .startsWith("fail token-41 " + TriggerHandler.TASK_STOPPED + ": terra-run plan task ");
  }

  @Test
  void applyAndPullRequestPlanTasksAndTasksStillRunningAreLeftToOthers() {
    ObjectNode apply =
        stopped(
            "AWS Step Functions",
            List.of(DeployFlow.TERRA_RUN, DeployFlow.APPLY_MODE),
            Map.of(),
            1);
    ObjectNode running = apply.deepCopy();
    ((ObjectNode) running.get("detail")).put("lastStatus", "RUNNING");

    assertThat(trigger.handle(apply)).startsWith("ignored: task ").endsWith("(terra-run apply)");
    assertThat(trigger.handle(running)).endsWith(" is RUNNING").startsWith("ignored: task ");
    assertThat(tokens.answers()).isEmpty();
  }
}
