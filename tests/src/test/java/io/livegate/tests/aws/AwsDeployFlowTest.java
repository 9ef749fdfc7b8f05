package io.livegate.tests.aws;

import static org.assertj.core.api.Assertions.assertThat;

import io.livegate.core.deploy.CommitStatusPublisher;
import io.livegate.core.deploy.DeploymentStatus;
import io.livegate.core.deploy.Execution;
import io.livegate.core.deploy.ExecutionStatus;
import io.livegate.core.deploy.StatusTexts;
import io.livegate.core.vote.Vote;
import io.livegate.process.TerraformState;
import io.livegate.tests.moto.MotoServer;
import io.livegate.tests.scenarios.LiveRepo;
import io.livegate.tests.scenarios.LiveRepos;
import io.livegate.tests.scenarios.Scenarios;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The deploy flow on AWS, end to end against moto (see {@link MotoDeployment}): the real ASL in
 * moto's Step Functions, the production handlers, jobs and adapters, and real terraform.
 */
@Timeout(value = 20, unit = TimeUnit.MINUTES)
@Tag("moto")
@Tag("terraform")
class AwsDeployFlowTest {
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

  private MotoDeployment flow(
      Function<Path, LiveRepo> repo, Duration approvalTimeout, long flowTimeoutSeconds) {
    MotoDeployment flow =
        new MotoDeployment(
            MOTO,
            dir,
            repo.apply(dir.resolve("live")),
            new MotoDeployment.Settings(approvalTimeout, flowTimeoutSeconds, false));
    opened.add(flow);
    return flow;
  }

  @Test
  void referenceScenarioRunsEveryUnitInOrderAndReleasesTheLock() {
    MotoDeployment flow = flow(LiveRepos::reference, Duration.ofMinutes(10), 3600);

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
      assertThat(flow.commitStatuses().of(StatusTexts.deployContext(execution.unit(), false)))
          .extracting(s -> s.state() + " " + s.description() + " " + s.targetUrl())
          .containsExactly(
              "PENDING planning " + MotoDeployment.LOG_URL,
              "PENDING planned +1 ~0 -0, new providers terraform.io/builtin/terraform;"
                  + " waiting for the vote "
                  + MotoDeployment.LOG_URL,
              "PENDING applying " + MotoDeployment.LOG_URL,
              "SUCCESS applied +1 ~0 -0, new providers terraform.io/builtin/terraform "
                  + MotoDeployment.LOG_URL);
    }
    assertThat(flow.commitStatuses().of(StatusTexts.DEPLOY))
        .allSatisfy(s -> assertThat(s.sha()).isEqualTo(flow.repo.head()))
        .extracting(s -> s.state() + " " + s.description())
        .containsExactly(
            "PENDING deployment " + flow.deploymentId + ": 10 units",
            "SUCCESS deployment " + flow.deploymentId + " succeeded");
  }

  @Test
  void aRejectedUnitAbortsItsDependentsWhileIndependentUnitsSucceed() {
    MotoDeployment flow = flow(LiveRepos::apps, Duration.ofMinutes(10), 3600);

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
    MotoDeployment flow = flow(LiveRepos::apps, Duration.ofMinutes(10), 3600);
    flow.deliveries = 2;

    flow.deploy();
    flow.drive(e -> e.unit().equals("app/b") ? Vote.Choice.REJECT : Vote.Choice.APPROVE);
    Map<String, ExecutionStatus> statuses = flow.statuses();
    Map<String, String> sfnStatuses = flow.sfnStatuses();

    flow.deliverCreated();
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
    MotoDeployment flow = flow(LiveRepos::apps, Scenarios.SHORT_VOTE_TIMEOUT, 3600);

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
    MotoDeployment flow =
        flow(live -> LiveRepos.single(live, LiveRepos.APPS_ACCOUNTS), Duration.ofMinutes(10), 3);

    flow.deploy();
    flow.drive(e -> null);

    assertThat(flow.sfnStatuses()).containsExactly(Map.entry(flow.name("app/a"), "TIMED_OUT"));
    assertThat(flow.statuses()).containsExactly(Map.entry("app/a", ExecutionStatus.FAILED));
    assertThat(flow.deploymentStatus()).isEqualTo(DeploymentStatus.FAILED);
    assertThat(flow.lock.current()).isEmpty();
  }

  @Test
  void aFailedApplyIsRolledBackByFlowsThatDestroyWhatTheNewProviderCreated() {
    MotoDeployment flow = flow(LiveRepos::appsWithFailingApply, Duration.ofMinutes(10), 3600);

    flow.deploy();
    flow.drive(e -> Vote.Choice.APPROVE);

    List<Execution> executions = flow.executions();
    Map<String, ExecutionStatus> normal =
        executions.stream()
            .filter(e -> !e.rollback())
            .collect(Collectors.toMap(Execution::unit, Execution::status));
    assertThat(normal)
        .containsExactlyInAnyOrderEntriesOf(
            Map.of(
                "app/a", ExecutionStatus.SUCCEEDED,
                "app/b", ExecutionStatus.FAILED,
                "app/c", ExecutionStatus.ABORTED,
                "app/d", ExecutionStatus.SUCCEEDED));
    assertThat(flow.commitStatuses().of(StatusTexts.deployContext("app/b", false)))
        .last()
        .satisfies(
            s -> {
              assertThat(s.state()).isEqualTo(CommitStatusPublisher.State.FAILURE);
              assertThat(s.description())
                  .isEqualTo("apply failed: Error: Resource postcondition failed");
            });
    Execution failed = flow.execution("app/b");
    // b's apply created its resource before the postcondition failed: the rollback must undo it.
    assertThat(failed.newResources()).containsExactly("terraform_data.this");
    assertThat(flow.flowOutcomes().get(failed.name())).isEqualTo("failed");
    // terraform's error outlives the task: it is in the execution's log in the artifact bucket
    assertThat(flow.logs.read(failed.name()))
        .hasValueSatisfying(
            log ->
                assertThat(log)
                    .containsPattern("(?m)^--- \\S+  terraform -chdir=app/b apply .*\\(exit 1\\)$")
                    .contains("Error: Resource postcondition failed"));

    List<Execution> rollbacks = executions.stream().filter(Execution::rollback).toList();
    assertThat(rollbacks)
        .extracting(Execution::unit)
        .containsExactlyInAnyOrder("app/a", "app/b", "app/d");
    for (Execution rollback : rollbacks) {
      assertThat(rollback.status()).as(rollback.unit()).isEqualTo(ExecutionStatus.SUCCEEDED);
      assertThat(rollback.spec().destroyTargets()).containsExactly("terraform_data.this");
      assertThat(rollback.planSummary().destroy()).as(rollback.unit()).isEqualTo(1);
      assertThat(rollback.planSummary().add()).as(rollback.unit()).isZero();
      assertThat(rollback.startedAt()).isAfterOrEqualTo(failed.finishedAt());
      assertThat(flow.sfnStatuses()).containsEntry(rollback.name(), "SUCCEEDED");
      assertThat(flow.flowOutcomes()).containsEntry(rollback.name(), "succeeded");
    }
    Map<String, Execution> undo =
        rollbacks.stream().collect(Collectors.toMap(Execution::unit, Function.identity()));
    // Rollbacks run in reverse dependency order: b depends on a, so a's waits for b's.
    assertThat(undo.get("app/a").startedAt())
        .as("a's rollback starts after b's rollback finished")
        .isAfterOrEqualTo(undo.get("app/b").finishedAt());
    // Six flows: a, b and d, their three rollbacks, and none for c, aborted before it started.
    assertThat(flow.sfnStatuses()).hasSize(6);
    Path repository = flow.workspace().resolve("repository");
    for (String unit : List.of("app/a", "app/b", "app/d")) {
      assertThat(TerraformState.resources(repository.resolve(unit))).as(unit).isEmpty();
    }
    assertThat(repository.resolve("app/c/terraform.tfstate")).doesNotExist();
    assertThat(flow.deploymentStatus()).isEqualTo(DeploymentStatus.FAILED);
    assertThat(flow.lock.current()).isEmpty();
  }

  /**
   * Issue 28's "a failed apply is never applied again", on AWS: b's Apply task dies the moment its
   * terraform apply failed, before terra-run recorded the failure; the retried task runs in a new
   * container without the first one's disk, reads the killed attempt's output from the bucket, and
   * records the failure instead of applying again.
   */
  @Test
  void anApplyTaskKilledAtItsFailureIsRecordedFailedByTheRetryWithoutApplyingAgain() {
    MotoDeployment flow = flow(LiveRepos::appsWithFailingApply, Duration.ofMinutes(10), 3600);
    flow.killAtTheFailedApplyOf("app/b");

    flow.deploy();
    flow.drive(e -> Vote.Choice.APPROVE);

    Execution b = flow.execution("app/b");
    assertThat(b.status()).isEqualTo(ExecutionStatus.FAILED);
    assertThat(flow.appliesOf("app/b")).as("terraform apply of b").isEqualTo(1);
    assertThat(flow.metadb.executions().flowEvents(b.id()))
        .contains("Apply: resumed: the previous Apply task stopped without an outcome")
        .anySatisfy(
            event ->
                assertThat(event)
                    .startsWith(
                        "Failed: the interrupted apply had failed before its failure was"
                            + " recorded, and is not applied again:")
                    .contains("Error: Resource postcondition failed"));
    assertThat(flow.commitStatuses().of(StatusTexts.deployContext("app/b", false)))
        .last()
        .satisfies(
            status ->
                assertThat(status.description())
                    .isEqualTo("apply failed: Error: Resource postcondition failed"));
    assertThat(b.newResources()).containsExactly("terraform_data.this");
    assertThat(flow.execution("app/c").status()).isEqualTo(ExecutionStatus.ABORTED);
    assertThat(flow.deploymentStatus()).isEqualTo(DeploymentStatus.FAILED);
    assertThat(flow.lock.current()).isEmpty();
  }

  @ParameterizedTest(name = "killed {0} terraform applied")
  @ValueSource(strings = {"before", "after"})
  void anApplyWhoseTaskWasKilledIsFinishedByTheRetriedTaskWithoutApplyingTwice(String when) {
    MotoDeployment flow =
        flow(live -> LiveRepos.single(live, LiveRepos.APPS_ACCOUNTS), Duration.ofMinutes(10), 3600);
    flow.killTheFirstApplyOf("app/a", when.equals("after"));

    flow.deploy();
    flow.drive(e -> Vote.Choice.APPROVE);

    Execution a = flow.execution("app/a");
    assertThat(a.status()).isEqualTo(ExecutionStatus.SUCCEEDED);
    assertThat(a.newResources()).containsExactly("terraform_data.this");
    assertThat(flow.metadb.executions().flowEvents(a.id()))
        .contains("Apply: resumed: the previous Apply task stopped without an outcome");
    assertThat(flow.commitStatuses().of(StatusTexts.deployContext("app/a", false)))
        .last()
        .satisfies(
            status ->
                assertThat(status.description())
                    .isEqualTo(
                        when.equals("after")
                            ? "the interrupted apply had finished; not applied again"
                            : "completed an interrupted apply (terraform_data.this: create)"));
    Path unit = flow.workspace().resolve("repository").resolve("app/a");
    assertThat(TerraformState.resources(unit)).containsOnlyKeys("terraform_data.this");
    assertThat(flow.sfnStatuses()).containsEntry(a.name(), "SUCCEEDED");
    assertThat(flow.deploymentStatus()).isEqualTo(DeploymentStatus.SUCCEEDED);
    assertThat(flow.lock.current()).isEmpty();
  }
}
