package io.livegate.tests.aws;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import io.livegate.core.deploy.CommitStatusPublisher;
import io.livegate.core.deploy.Deployment;
import io.livegate.core.deploy.DeploymentStatus;
import io.livegate.core.deploy.Execution;
import io.livegate.core.deploy.ExecutionStatus;
import io.livegate.core.deploy.StatusTexts;
import io.livegate.core.testing.RecordingStatuses;
import io.livegate.core.vote.Vote;
import io.livegate.tests.moto.MotoServer;
import io.livegate.tests.scenarios.LiveRepo;
import io.livegate.tests.scenarios.LiveRepos;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.services.sfn.model.HistoryEvent;
import software.amazon.awssdk.services.sfn.model.HistoryEventType;
import software.amazon.awssdk.services.ssm.model.ParameterNotFoundException;

/**
 * The stuck states of docs/operations.md that take a deployment flow, on moto running the real ASL:
 * a rollback that fails holds the lock and names the admin command that resolves it, which the
 * admin Lambda's handler then runs; a Plan task that hangs without heartbeats fails its flow. Each
 * ends with the next merge deployed.
 */
@Timeout(value = 20, unit = TimeUnit.MINUTES)
@Tag("moto")
@Tag("terraform")
class AdminAwsTest {
  @RegisterExtension static final MotoServer MOTO = new MotoServer();

  @TempDir Path dir;

  private final List<MotoDeployment> opened = new ArrayList<>();

  @BeforeEach
  void resetMoto() {
    MOTO.reset();
  }

  @AfterEach
  void closeClients() {
    opened.forEach(MotoDeployment::close);
  }

  private MotoDeployment flow(Function<Path, LiveRepo> repo, MotoDeployment.Settings settings) {
    MotoDeployment flow = new MotoDeployment(MOTO, dir, repo.apply(dir.resolve("live")), settings);
    opened.add(flow);
    return flow;
  }

  private static String lockHolder(MotoDeployment flow) {
    return flow.ssm.getParameter(r -> r.name(MotoDeployment.LOCK_PARAMETER)).parameter().value();
  }

  @Test
  void aFailedRollbackHoldsTheLockNamingTheAdminCommandThatHandsItToTheNextMerge() {
    MotoDeployment flow =
        flow(LiveRepos::appsWithFailingApply, MotoDeployment.Settings.of(Duration.ofMinutes(10)));
    // b's apply fails; the rollback of b dies before it reports, so the rollback fails.
    flow.killPlans = execution -> execution.rollback() && execution.unit().equals("app/b");
    flow.deploy();
    String next = LiveRepos.addUnit(flow.repo, "z");
    assertThat(flow.merge(2, flow.repo.head(), next))
        .isEqualTo("queued deployment " + flow.deploymentOf(2).id() + " of pull request #2");

    // rollback_failed is not finished: it keeps the lock until an operator steps in.
    flow.driveUntil(
        execution -> Vote.Choice.APPROVE,
        () ->
            flow.deploymentStatus() == DeploymentStatus.ROLLBACK_FAILED
                && flow.runningFlows() == 0);

    assertThat(flow.deploymentStatus()).isEqualTo(DeploymentStatus.ROLLBACK_FAILED);
    Execution rollback =
        flow.executions().stream()
            .filter(e -> e.rollback() && e.unit().equals("app/b"))
            .findFirst()
            .orElseThrow();
    assertThat(rollback.status()).isEqualTo(ExecutionStatus.FAILED);
    String resolve = "livegate admin --aws resolve-rollback " + rollback.id();
    // The lock stays with the first merge; the merge commit's status names the exact command.
    assertThat(lockHolder(flow)).contains(flow.repo.head());
    assertThat(flow.deploymentOf(2).status()).isEqualTo(DeploymentStatus.QUEUED);
    RecordingStatuses.Status deployed =
        flow.commitStatuses().of(StatusTexts.DEPLOY).stream()
            .filter(status -> status.sha().equals(flow.repo.head()))
            .reduce((first, second) -> second)
            .orElseThrow();
    assertThat(deployed.state()).isEqualTo(CommitStatusPublisher.State.ERROR);
    assertThat(deployed.description())
        .isEqualTo(
            "deployment "
                + flow.deploymentId
                + ": a rollback failed and holds the lock; repair it, then run "
                + resolve);
    JsonNode queue = flow.admin.handle(MotoDeployment.json("{\"command\": \"queue\"}"));
    assertThat(queue.get("lines").get(0).asText())
        .endsWith(
            "holds the lock (rollback_failed): a rollback failed; repair what it left by hand,"
                + " then run "
                + resolve);

    JsonNode resolved =
        flow.admin.handle(
            MotoDeployment.json(
                "{\"command\": \"resolve-rollback\", \"execution\": " + rollback.id() + "}"));

    assertThat(resolved.toString())
        .isEqualTo(
            "{\"lines\":[\"rollback app/b of deployment "
                + flow.deploymentId
                + " resolved by an operator: the deployment failed; started deployment "
                + flow.deploymentOf(2).id()
                + "\"],\"done\":true}");
    assertThat(flow.deploymentStatus()).isEqualTo(DeploymentStatus.FAILED);
    assertThat(lockHolder(flow)).contains(next);
    // The same call again resolves nothing and leaves the lock with the next merge.
    JsonNode again =
        flow.admin.handle(
            MotoDeployment.json(
                "{\"command\": \"resolve-rollback\", \"execution\": " + rollback.id() + "}"));
    assertThat(again.get("done").asBoolean()).isFalse();
    assertThat(again.get("lines").get(0).asText())
        .isEqualTo(
            "execution "
                + rollback.id()
                + " is not a failed rollback of a deployment in rollback_failed (deployment "
                + flow.deploymentId
                + " is failed); nothing resolved");

    Deployment second = flow.driveTheDeploymentOf(2);

    assertThat(second.status()).isEqualTo(DeploymentStatus.SUCCEEDED);
    assertThat(flow.metadb.executions().list(second.id()))
        .extracting(Execution::unit, Execution::status)
        .containsExactly(org.assertj.core.groups.Tuple.tuple("app/z", ExecutionStatus.SUCCEEDED));
    assertThatThrownBy(() -> lockHolder(flow)).isInstanceOf(ParameterNotFoundException.class);
  }

  /**
   * moto 5.2.1 enforces HeartbeatSeconds on a {@code .waitForTaskToken} Task (its ASL parser waits
   * on the task token's heartbeat endpoint and times the state out when no heartbeat came), so this
   * runs the real path, with the Plan state's HeartbeatSeconds at 5 instead of the ASL's 900
   * (statemachine's DeployFlowTest holds those). The plan container hangs: it neither reports nor
   * stops, so the StoppedTasks rule never fires and only the missed heartbeat ends the flow.
   */
  @Test
  void aPlanTaskThatStopsSendingHeartbeatsFailsItsFlowAndTheNextMergeIsDeployed() {
    MotoDeployment flow =
        flow(
            live -> LiveRepos.single(live, LiveRepos.APPS_ACCOUNTS),
            new MotoDeployment.Settings(Duration.ofMinutes(10), 3600, false, OptionalLong.of(5)));
    flow.hangPlans = execution -> execution.deploymentId() == flow.deploymentId;
    flow.deploy();
    String next = LiveRepos.addUnit(flow.repo, "z");
    assertThat(flow.merge(2, flow.repo.head(), next))
        .isEqualTo("queued deployment " + flow.deploymentOf(2).id() + " of pull request #2");

    flow.drive(execution -> Vote.Choice.APPROVE);

    Execution hung = flow.execution("app/a");
    assertThat(hung.status()).isEqualTo(ExecutionStatus.FAILED);
    assertThat(flow.deploymentStatus()).isEqualTo(DeploymentStatus.FAILED);
    List<HistoryEvent> history =
        flow.sfn
            .getExecutionHistory(
                r ->
                    r.executionArn(
                        flow.listExecutions().stream()
                            .filter(e -> e.name().equals(hung.name()))
                            .findFirst()
                            .orElseThrow()
                            .executionArn()))
            .events();
    // The Plan task timed out within seconds of starting: its heartbeat (5 s here), not its
    // TimeoutSeconds (7200 s). AWS names the error States.HeartbeatTimeout; moto 5.2.1 raises its
    // heartbeat timeout as a TimeoutError and names it States.Timeout. The Catch takes both.
    HistoryEvent started =
        history.stream()
            .filter(event -> event.type() == HistoryEventType.TASK_STARTED)
            .findFirst()
            .orElseThrow();
    HistoryEvent timedOut =
        history.stream()
            .filter(event -> event.type() == HistoryEventType.TASK_TIMED_OUT)
            .findFirst()
            .orElseThrow(
                () ->
                    new AssertionError(
                        "no TaskTimedOut in " + history.stream().map(HistoryEvent::type).toList()));
    assertThat(timedOut.taskTimedOutEventDetails().error())
        .isIn("States.HeartbeatTimeout", "States.Timeout");
    assertThat(Duration.between(started.timestamp(), timedOut.timestamp()))
        .isBetween(Duration.ofSeconds(5), Duration.ofSeconds(60));

    Deployment second = flow.driveTheDeploymentOf(2);

    assertThat(second.status()).isEqualTo(DeploymentStatus.SUCCEEDED);
    assertThat(flow.metadb.executions().list(second.id()))
        .extracting(Execution::unit, Execution::status)
        .containsExactly(org.assertj.core.groups.Tuple.tuple("app/z", ExecutionStatus.SUCCEEDED));
    assertThatThrownBy(() -> lockHolder(flow)).isInstanceOf(ParameterNotFoundException.class);
  }
}
