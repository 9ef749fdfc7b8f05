package io.livegate.tests.engine;

import static io.livegate.scan.testing.ReferenceScenario.DEV;
import static io.livegate.scan.testing.ReferenceScenario.SHARED;
import static io.livegate.scan.testing.ReferenceScenario.unit;
import static org.assertj.core.api.Assertions.assertThat;

import io.livegate.core.deploy.CreateDeployment;
import io.livegate.core.deploy.DeploymentStatus;
import io.livegate.core.deploy.Execution;
import io.livegate.core.deploy.ExecutionStatus;
import io.livegate.core.deploy.OutcomeResult;
import io.livegate.sql.testing.Scenarios;
import io.livegate.sql.testing.TestEngine;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ReferenceDeploymentTest {
  @TempDir Path dir;
  private final TestEngine engine = TestEngine.fresh();

  private CreateDeployment.Result deployBothGlobals() {
    return engine.create.create(
        Scenarios.reference(
            dir, 7, repo -> repo.touch(SHARED + "/global/main.tf").touch(DEV + "/global/main.tf")));
  }

  /** Releases and succeeds everything that is ready, wave by wave, until nothing is released. */
  private List<List<String>> runToEnd(
      long deploymentId, Function<Execution, ExecutionStatus> outcome) {
    List<List<String>> waves = new ArrayList<>();
    List<Execution> released;
    while (!(released = engine.release.release(deploymentId)).isEmpty()) {
      waves.add(released.stream().map(Execution::unit).toList());
      for (Execution execution : released) {
        engine.outcomes.record(execution.id(), outcome.apply(execution));
      }
    }
    return waves;
  }

  private Map<String, ExecutionStatus> statuses(long deploymentId) {
    return engine.executions.list(deploymentId).stream()
        .collect(Collectors.toMap(Execution::unit, Execution::status));
  }

  @Test
  void referenceScenarioReleasesLayerByLayerAndDevWaitsForAllOfSharedServices() {
    CreateDeployment.Result result = deployBothGlobals();
    assertThat(result.created()).isTrue();
    assertThat(result.started())
        .hasValueSatisfying(d -> assertThat(d.status()).isEqualTo(DeploymentStatus.RUNNING));
    long id = result.deployment().id();

    List<List<String>> waves = runToEnd(id, execution -> ExecutionStatus.SUCCEEDED);

    assertThat(waves)
        .containsExactly(
            List.of(unit(SHARED, "global")),
            List.of(unit(SHARED, "baz"), unit(SHARED, "doo")),
            List.of(unit(SHARED, "bar")),
            List.of(unit(SHARED, "foo")),
            List.of(unit(DEV, "global")),
            List.of(unit(DEV, "baz"), unit(DEV, "doo")),
            List.of(unit(DEV, "bar")),
            List.of(unit(DEV, "foo")));
    assertThat(engine.deployments.find(id).orElseThrow().status())
        .isEqualTo(DeploymentStatus.SUCCEEDED);
  }

  @Test
  void theLastOutcomeFinishesTheDeploymentAndAsksToReleaseTheLock() {
    long id = deployBothGlobals().deployment().id();
    List<OutcomeResult> results = engine.runToEnd(id, execution -> ExecutionStatus.SUCCEEDED);

    assertThat(results).hasSize(10);
    assertThat(results.subList(0, 9)).allSatisfy(r -> assertThat(r.releaseLock()).isFalse());
    OutcomeResult last = results.get(9);
    assertThat(last.releaseLock()).isTrue();
    assertThat(last.finished()).contains(DeploymentStatus.SUCCEEDED);
  }

  @Test
  void rejectingBarAbortsFooAndOnlyWhatDependsOnItWhileDooCompletes() {
    long id =
        engine
            .create
            .create(Scenarios.reference(dir, 8, repo -> repo.touch(DEV + "/global/main.tf")))
            .deployment()
            .id();

    runToEnd(
        id,
        execution ->
            execution.unit().equals(unit(DEV, "bar"))
                ? ExecutionStatus.REJECTED
                : ExecutionStatus.SUCCEEDED);

    assertThat(statuses(id))
        .containsExactlyInAnyOrderEntriesOf(
            Map.of(
                unit(DEV, "global"), ExecutionStatus.SUCCEEDED,
                unit(DEV, "baz"), ExecutionStatus.SUCCEEDED,
                unit(DEV, "doo"), ExecutionStatus.SUCCEEDED,
                unit(DEV, "bar"), ExecutionStatus.REJECTED,
                unit(DEV, "foo"), ExecutionStatus.ABORTED));
    assertThat(engine.deployments.find(id).orElseThrow().status())
        .isEqualTo(DeploymentStatus.REJECTED);
  }

  @Test
  void aFailureInSharedServicesAbortsTheDevAccountThatDependsOnIt() {
    long id = deployBothGlobals().deployment().id();

    runToEnd(
        id,
        execution ->
            execution.unit().equals(unit(SHARED, "doo"))
                ? ExecutionStatus.FAILED
                : ExecutionStatus.SUCCEEDED);

    Map<String, ExecutionStatus> statuses = statuses(id);
    assertThat(statuses.get(unit(SHARED, "foo"))).isEqualTo(ExecutionStatus.SUCCEEDED);
    assertThat(statuses.entrySet().stream().filter(e -> e.getKey().startsWith(DEV)))
        .allSatisfy(e -> assertThat(e.getValue()).isEqualTo(ExecutionStatus.ABORTED));
    assertThat(engine.deployments.find(id).orElseThrow().status())
        .isEqualTo(DeploymentStatus.FAILED);
  }

  @Test
  void rollbackDestroysBazsNewResourcesBeforeGlobalsAfterFooFails() {
    long id =
        engine
            .create
            .create(Scenarios.reference(dir, 9, repo -> repo.touch(DEV + "/global/main.tf")))
            .deployment()
            .id();
    List<String> rollbackOrder = new ArrayList<>();
    List<Execution> released;
    while (!(released = engine.release.release(id)).isEmpty()) {
      for (Execution execution : released) {
        if (execution.rollback()) {
          rollbackOrder.add(execution.unit());
          engine.outcomes.record(execution.id(), ExecutionStatus.SUCCEEDED);
        } else if (execution.unit().equals(unit(DEV, "foo"))) {
          engine.outcomes.record(execution.id(), ExecutionStatus.FAILED);
        } else {
          if (execution.unit().equals(unit(DEV, "global"))
              || execution.unit().equals(unit(DEV, "baz"))) {
            engine.executions.recordNewResources(
                execution.id(),
                List.of("module.network.aws_vpc.main", "aws_s3_bucket.logs[\"a b\"]"));
          }
          engine.outcomes.record(execution.id(), ExecutionStatus.SUCCEEDED);
        }
      }
    }

    assertThat(rollbackOrder).containsExactly(unit(DEV, "baz"), unit(DEV, "global"));
    Execution bazRollback =
        engine.executions.list(id).stream()
            .filter(e -> e.rollback() && e.unit().equals(unit(DEV, "baz")))
            .findFirst()
            .orElseThrow();
    assertThat(bazRollback.spec().destroyTargets())
        .containsExactly("module.network.aws_vpc.main", "aws_s3_bucket.logs[\"a b\"]");
    assertThat(bazRollback.spec().planCommands().get(1))
        .contains(
            "-destroy",
            "-target=module.network.aws_vpc.main",
            "-target=aws_s3_bucket.logs[\"a b\"]");
    assertThat(engine.deployments.find(id).orElseThrow().status())
        .isEqualTo(DeploymentStatus.FAILED);
  }

  @Test
  void aFailedRollbackKeepsTheDeploymentLockedForAnOperator() {
    long id =
        engine
            .create
            .create(Scenarios.reference(dir, 10, repo -> repo.touch(DEV + "/global/main.tf")))
            .deployment()
            .id();
    OutcomeResult last = null;
    List<Execution> released;
    while (!(released = engine.release.release(id)).isEmpty()) {
      for (Execution execution : released) {
        if (execution.unit().equals(unit(DEV, "global")) && !execution.rollback()) {
          engine.executions.recordNewResources(execution.id(), List.of("terraform_data.network"));
        }
        boolean fail = execution.rollback() || execution.unit().equals(unit(DEV, "baz"));
        last =
            engine.outcomes.record(
                execution.id(), fail ? ExecutionStatus.FAILED : ExecutionStatus.SUCCEEDED);
      }
    }

    assertThat(last.finished()).contains(DeploymentStatus.ROLLBACK_FAILED);
    assertThat(last.releaseLock()).isFalse();
    assertThat(engine.deployments.find(id).orElseThrow().status())
        .isEqualTo(DeploymentStatus.ROLLBACK_FAILED);
    assertThat(engine.release.release(id)).isEmpty();
  }
}
