package io.livegate.cli.local;

import static org.assertj.core.api.Assertions.assertThat;

import io.livegate.cli.CliRun;
import io.livegate.core.deploy.DeploymentStatus;
import io.livegate.core.deploy.Execution;
import io.livegate.core.deploy.ExecutionStatus;
import io.livegate.core.flow.FlowState;
import io.livegate.core.testing.FlowPath;
import io.livegate.process.TerraformState;
import io.livegate.scan.testing.TestRepo;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * An apply that fails after creating its resource: the failure policy aborts its dependents, and
 * the rollback destroys everything the deployment created with the newly added provider, in reverse
 * dependency order, through the same plan, vote and apply.
 */
@Timeout(value = 20, unit = TimeUnit.MINUTES)
@Tag("terraform")
class LocalDeployRollbackTest {
  private static final String A = "app/a";
  private static final String B = "app/b";
  private static final String C = "app/c";
  private static final String D = "app/d";

  @TempDir static Path dir;
  private static TestRepo repo;
  private static CliRun run;
  private static Recorded recorded;

  @BeforeAll
  static void deployAMergeWhoseApplyFails() {
    repo = LiveRepos.failingApply(dir.resolve("live"));
    Path state = dir.resolve("state");
    run = CliRun.autoApprovedDeploy(repo.root(), state, "--parallelism", "2");
    recorded = Recorded.in(state);
  }

  @Test
  void theFailedUnitsDependentIsAbortedAndTheDeploymentFails() {
    assertThat(run.exitCode()).as(run.toString()).isEqualTo(1);
    assertThat(recorded.deployment().status()).isEqualTo(DeploymentStatus.FAILED);
    assertThat(recorded.execution(A).status()).isEqualTo(ExecutionStatus.SUCCEEDED);
    assertThat(recorded.execution(B).status()).isEqualTo(ExecutionStatus.FAILED);
    assertThat(recorded.execution(C).status()).isEqualTo(ExecutionStatus.ABORTED);
    assertThat(recorded.execution(D).status()).isEqualTo(ExecutionStatus.SUCCEEDED);
    assertThat(run.out())
        .contains("[app/b] failed: apply exited with 1")
        .contains("b refuses the output it was given")
        .containsPattern("app/c +aborted ")
        .contains("deployment 1: failed");
    List<String> failed = recorded.events(recorded.execution(B));
    FlowPath.requireComplete(failed, FlowState.FAILED);
    assertThat(failed.get(failed.size() - 2)).isEqualTo("Apply");
  }

  @Test
  void everyUnitThatCreatedResourcesOfTheNewProviderIsRolledBackAndTheFailedOneToo() {
    assertThat(recorded.execution(B).newResources()).containsExactly("terraform_data.b");
    assertThat(recorded.rollbacks()).extracting(Execution::unit).containsExactlyInAnyOrder(A, B, D);
    for (Execution rollback : recorded.rollbacks()) {
      assertThat(rollback.status()).as(rollback.unit()).isEqualTo(ExecutionStatus.SUCCEEDED);
      assertThat(rollback.spec().destroyTargets())
          .containsExactly("terraform_data." + rollback.unit().substring(4));
      assertThat(rollback.planSummary().destroy()).as(rollback.unit()).isEqualTo(1);
      FlowPath.requireComplete(recorded.events(rollback), FlowState.SUCCEEDED);
    }
    assertThat(run.out()).containsPattern("app/a \\(rollback\\) +succeeded ");
  }

  @Test
  void rollbacksRunInReverseDependencyOrder() {
    Execution undoA = recorded.rollback(A);
    for (String dependent : List.of(B, D)) {
      assertThat(undoA.startedAt())
          .as("a's rollback starts after %s's rollback finished", dependent)
          .isAfterOrEqualTo(recorded.rollback(dependent).finishedAt());
    }
    assertThat(recorded.rollbacks())
        .allSatisfy(
            rollback ->
                assertThat(rollback.startedAt())
                    .isAfterOrEqualTo(recorded.execution(D).finishedAt()));
  }

  @Test
  void theRolledBackResourcesAreReallyGone() {
    for (String unit : List.of(A, B, D)) {
      assertThat(TerraformState.resources(repo.root().resolve(unit))).as(unit).isEmpty();
    }
    assertThat(repo.root().resolve(C).resolve("terraform.tfstate")).doesNotExist();
  }
}
