package io.livegate.cli.local;

import static org.assertj.core.api.Assertions.assertThat;

import io.livegate.cli.CliRun;
import io.livegate.cli.example.ExampleRepo;
import io.livegate.core.deploy.DeploymentStatus;
import io.livegate.core.deploy.Execution;
import io.livegate.core.deploy.ExecutionStatus;
import io.livegate.core.flow.FlowState;
import io.livegate.core.testing.FlowPath;
import io.livegate.process.TerraformState;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The reference scenario end to end: {@code livegate deploy} of the bundled example's merge (two
 * accounts, five units each) with real git, real terraform and the embedded metadb.
 */
@Timeout(value = 20, unit = TimeUnit.MINUTES)
@Tag("terraform")
class LocalDeployReferenceScenarioTest {
  private static final String SHARED = "shared-services-account/";

  @TempDir static Path dir;
  private static Path live;
  private static Path state;
  private static String[] deploy;
  private static CliRun run;
  private static Recorded recorded;

  @BeforeAll
  static void deployTheExample() {
    live = dir.resolve("live");
    state = dir.resolve("state");
    ExampleRepo.Commits commits = ExampleRepo.create(live);
    deploy =
        new String[] {
          "deploy",
          "--repo",
          live.toString(),
          "--base",
          commits.base(),
          "--head",
          "HEAD",
          "--accounts",
          live.resolve(ExampleRepo.ACCOUNTS_FILE).toString(),
          "--runner",
          "terraform",
          "--auto-approve",
          "--port",
          "0",
          "--parallelism",
          "2",
          "--state-dir",
          state.toString()
        };
    run = CliRun.withPath(deploy);
    recorded = Recorded.in(state);
  }

  @Test
  void everyUnitOfBothAccountsIsApplied() {
    assertThat(run.exitCode()).as(run.toString()).isZero();
    assertThat(recorded.deployment().status()).isEqualTo(DeploymentStatus.SUCCEEDED);
    assertThat(recorded.executions()).hasSize(10);
    assertThat(recorded.executions())
        .allSatisfy(
            execution -> assertThat(execution.status()).isEqualTo(ExecutionStatus.SUCCEEDED));
    assertThat(run.out()).contains("deployment 1: succeeded");
    for (Execution execution : recorded.executions()) {
      assertThat(TerraformState.resources(live.resolve(execution.unit())))
          .as(execution.unit())
          .hasSize(1);
    }
  }

  @Test
  void eachUnitStartsOnlyAfterEveryDependencyFinished() {
    for (Execution execution : recorded.executions()) {
      for (long dependency : execution.dependsOn()) {
        Execution before = recorded.byId(dependency);
        assertThat(execution.startedAt())
            .as("%s starts after %s finished", execution.unit(), before.unit())
            .isAfterOrEqualTo(before.finishedAt());
      }
    }
  }

  @Test
  void theSharedServicesAccountIsDeployedEntirelyBeforeTheDevAccount() {
    Instant sharedDone =
        recorded.executions().stream()
            .filter(execution -> execution.unit().startsWith(SHARED))
            .map(Execution::finishedAt)
            .max(Comparator.naturalOrder())
            .orElseThrow();
    List<Execution> dev =
        recorded.executions().stream()
            .filter(execution -> execution.unit().startsWith(LiveRepos.DEV))
            .toList();

    assertThat(dev).hasSize(5);
    assertThat(dev)
        .allSatisfy(
            execution ->
                assertThat(execution.startedAt())
                    .as(execution.unit())
                    .isAfterOrEqualTo(sharedDone));
  }

  @Test
  void dependentsArePlannedWithTheirDependenciesAppliedOutputs() throws Exception {
    // The value goes global v2 -> baz -> bar -> foo; each link is only known once the unit before
    // was applied, so a plan made earlier would fail or show "(known after apply)".
    String chain = "foo after bar after baz on unknown-network-v2";
    Execution foo = recorded.execution(LiveRepos.DEV_FOO);
    String planText = Files.readString(state.resolve(foo.planArtifact() + ".txt"));

    assertThat(planText).contains("input  = \"" + chain + "\"");
    assertThat(
            TerraformState.resources(live.resolve(LiveRepos.DEV_FOO))
                .get("terraform_data.foo")
                .path("output")
                .asText())
        .isEqualTo(chain);
  }

  @Test
  void everyFlowGoesFromPlanThroughTheVoteAndApplyToSucceeded() {
    for (Execution execution : recorded.executions()) {
      assertThat(FlowPath.requireComplete(recorded.events(execution), FlowState.SUCCEEDED))
          .as(execution.unit())
          .containsExactly(
              FlowState.PLAN,
              FlowState.REQUEST_APPROVAL,
              FlowState.DECIDE,
              FlowState.APPLY,
              FlowState.SUCCEEDED);
      assertThat(recorded.events(execution))
          .filteredOn(event -> event.startsWith("Succeeded: applied"))
          .as(execution.unit())
          .containsExactly(
              "Succeeded: applied; new resources "
                  + String.join(
                      ", ", TerraformState.resources(live.resolve(execution.unit())).keySet()));
    }
  }

  @Test
  void deployingTheSameMergeAgainSaysItWasQueuedBeforeInOneLine() {
    CliRun again = CliRun.withPath(deploy);

    assertThat(again.exitCode()).as(again.toString()).isEqualTo(1);
    assertThat(again.errLines()).as(again.toString()).hasSize(1);
    assertThat(again.errLines().get(0))
        .matches(
            "livegate: this merge \\([0-9a-f]{12}\\) was queued before as deployment 1, now"
                + " succeeded");
    assertThat(Recorded.in(state).deployments()).hasSize(1);
  }

  @Test
  void statusListsTheDeploymentWithEveryUnit() {
    CliRun status = CliRun.withPath("status", "--state-dir", state.toString());

    assertThat(status.exitCode()).as(status.toString()).isZero();
    assertThat(status.out()).startsWith("deployment 1: succeeded\n  repository  " + live + "\n");
    for (Execution execution : recorded.executions()) {
      assertThat(status.out()).containsPattern(execution.unit() + " +succeeded +[0-9.]+s +1 +0 +0");
    }
  }
}
