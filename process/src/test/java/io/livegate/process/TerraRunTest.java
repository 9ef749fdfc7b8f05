package io.livegate.process;

import static org.assertj.core.api.Assertions.assertThat;

import io.livegate.core.deploy.Execution;
import io.livegate.core.deploy.ExecutionSpec;
import io.livegate.core.deploy.PlanSummary;
import io.livegate.core.runner.CommandResult;
import io.livegate.core.runner.ResourceShortage;
import io.livegate.core.runner.RunnerArgv;
import io.livegate.core.runner.Sandbox;
import io.livegate.core.testing.ScriptedCommandRunner;
import io.livegate.core.unit.UnitRunner;
import io.livegate.scan.SandboxedPlan;
import io.livegate.scan.repo.SourceAccess;
import io.livegate.scan.testing.TestRepo;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Plan and apply of one unit with real terraform, and how a resumed run finishes an apply that
 * livegate's death interrupted: not again when it had finished, only what was approved when
 * something is left.
 */
@Tag("terraform")
class TerraRunTest {
  private static final String UNIT = "app";
  private static final String BUILTIN = "terraform.io/builtin/terraform";

  @TempDir Path dir;
  private TerraRun terraRun;

  @BeforeEach
  void writeTheUnit() throws Exception {
    TestRepo repo = TestRepo.create(dir.resolve("live"));
    repo.write(UNIT + "/main.tf", "resource \"terraform_data\" \"app\" {\n  input = \"v1\"\n}\n");
    terraRun = terraRun(repo.root(), Files.createDirectories(dir.resolve("plans")));
  }

  /** The terraform runner, unsandboxed, on {@code repository} with its plans in {@code plans}. */
  private TerraRun terraRun(Path repository, Path plans) {
    return new TerraRun(
        new SandboxedPlan.Tools(
            new ProcessCommandRunner(),
            RunnerArgv.TERRAFORM,
            Sandbox.none("terraform runs without a sandbox"),
            Map.of()),
        repository,
        plans,
        SourceAccess.in(dir.resolve("state")));
  }

  @Test
  void anInterruptedApplyThatHadFinishedIsNotAppliedAgain() {
    Execution planned = planned(execution("d1-app", List.of()));
    assertThat(planned.planSummary().newProviders()).containsExactly(BUILTIN);
    UnitRunner.Step<List<String>> applied = terraRun.apply(planned, Set.of(BUILTIN));
    assertThat(applied.error()).isNull();
    assertThat(applied.value()).containsExactly("terraform_data.app");
    String id = TerraformState.ids(dir.resolve("live").resolve(UNIT)).get("terraform_data.app");

    UnitRunner.Step<UnitRunner.Resumed> resumed =
        terraRun.finishInterruptedApply(planned, Set.of(BUILTIN));

    assertThat(resumed.error()).isNull();
    assertThat(resumed.value().detail())
        .isEqualTo("the interrupted apply had finished; not applied again");
    assertThat(resumed.value().newResources()).containsExactly("terraform_data.app");
    assertThat(TerraformState.ids(dir.resolve("live").resolve(UNIT)))
        .containsEntry("terraform_data.app", id);
  }

  @Test
  void anInterruptedApplyWithApprovedChangesLeftFinishesThemWithoutANewVote() {
    Execution planned = planned(execution("d1-app", List.of()));

    UnitRunner.Step<UnitRunner.Resumed> resumed =
        terraRun.finishInterruptedApply(planned, Set.of(BUILTIN));

    assertThat(resumed.error()).isNull();
    assertThat(resumed.value().detail())
        .isEqualTo("completed an interrupted apply (terraform_data.app: create)");
    assertThat(TerraformState.resources(dir.resolve("live").resolve(UNIT)))
        .containsOnlyKeys("terraform_data.app");
  }

  @Test
  void changesTheVotersDidNotApproveAreNeverAppliedWhenAnApplyIsFinished() throws Exception {
    Execution planned = planned(execution("d1-app", List.of()));
    Files.writeString(
        dir.resolve("live").resolve(UNIT).resolve("extra.tf"),
        "resource \"terraform_data\" \"extra\" {}\n");

    UnitRunner.Step<UnitRunner.Resumed> resumed =
        terraRun.finishInterruptedApply(planned, Set.of(BUILTIN));

    assertThat(resumed.error())
        .isEqualTo(
            "the interrupted apply left changes the voters did not approve"
                + " (terraform_data.extra: create); nothing more was applied");
    assertThat(TerraformState.resources(dir.resolve("live").resolve(UNIT))).isEmpty();
  }

  @Test
  void aPlanFileChangedAfterApprovalIsNotApplied() throws Exception {
    Execution planned = planned(execution("d1-app", List.of()));
    Files.writeString(
        terraRun.planFile(planned), "tampered", java.nio.file.StandardOpenOption.APPEND);

    UnitRunner.Step<List<String>> applied = terraRun.apply(planned, Set.of(BUILTIN));

    assertThat(applied.error())
        .contains("differs from the approved one")
        .contains("nothing was applied");
    assertThat(TerraformState.resources(dir.resolve("live").resolve(UNIT))).isEmpty();
  }

  @Test
  void aPlanWhoseChangesAreNotTheSummaryTheVotersWereShownIsNotApplied() {
    Execution planned = planned(execution("d1-app", List.of()));
    Execution shownNothing = shown(planned, new PlanSummary(0, 0, 0, List.of()));

    UnitRunner.Step<List<String>> applied = terraRun.apply(shownNothing, Set.of(BUILTIN));

    assertThat(applied.error())
        .isEqualTo(
            "the saved plan's changes (+1 ~0 -0) are not the ones the voters were shown (+0 ~0 -0);"
                + " nothing was applied");
    assertThat(TerraformState.resources(dir.resolve("live").resolve(UNIT))).isEmpty();
  }

  @Test
  void theTerraformRunnerRefusesAPlanRoleItCannotAssumeAndRunsNothing() {
    ScriptedCommandRunner runner = new ScriptedCommandRunner();
    TerraRun terraform =
        new TerraRun(
            new SandboxedPlan.Tools(
                runner,
                RunnerArgv.TERRAFORM,
                Sandbox.none("terraform runs without a sandbox"),
                Map.of()),
            dir,
            dir.resolve("plans"),
            SourceAccess.in(dir.resolve("state")));
    String planRole = "arn:aws:iam::111111111111:role/livegate-plan";

    UnitRunner.Step<UnitRunner.Plan> plan =
        terraform.plan(
            UNIT, "d1-app", RunnerArgv.TERRAFORM.planCommands(UNIT, planRole, List.of()), planRole);

    assertThat(plan.error())
        .isEqualTo(
            "the terraform runner cannot assume the plan role "
                + planRole
                + " of app; use the"
                + " terragrunt runner, or remove the account's plan_role; nothing was run");
    assertThat(runner.calls("plan")).isEmpty();
    assertThat(runner.calls("init")).isEmpty();
  }

  @Test
  void aUnitPathThatContainsThePlanFilePlaceholderIsRefusedAndNothingRuns() {
    ScriptedCommandRunner runner = new ScriptedCommandRunner();
    TerraRun terragrunt =
        new TerraRun(
            new SandboxedPlan.Tools(
                runner,
                RunnerArgv.TERRAGRUNT,
                Sandbox.none("terraform runs without a sandbox"),
                Map.of()),
            dir,
            dir.resolve("plans"),
            SourceAccess.in(dir.resolve("state")));
    String unit = "dev/{plan_file}";

    UnitRunner.Step<UnitRunner.Plan> plan =
        terragrunt.plan(
            unit, "d1-app", RunnerArgv.TERRAGRUNT.planCommands(unit, null, List.of()), null);

    assertThat(plan.error())
        .isEqualTo(
            "the unit path dev/{plan_file} contains {plan_file}, which stands for the plan file"
                + " in livegate's commands; rename the directory; nothing was run");
    assertThat(runner.calls()).isEmpty();
  }

  @Test
  void anInterruptedRollbackWhoseDestroyFinishedIsNotAppliedAgain() {
    Execution deployed = planned(execution("d1-app", List.of()));
    assertThat(terraRun.apply(deployed, Set.of(BUILTIN)).error()).isNull();
    Execution rollback = planned(execution("d1-app-rollback", List.of("terraform_data.app")));
    assertThat(rollback.planSummary().destroy()).isEqualTo(1);
    assertThat(terraRun.apply(rollback, Set.of()).error()).isNull();

    UnitRunner.Step<UnitRunner.Resumed> resumed =
        terraRun.finishInterruptedApply(rollback, Set.of());

    assertThat(resumed.error()).isNull();
    assertThat(resumed.value().detail())
        .isEqualTo("the interrupted apply had finished; not applied again");
    assertThat(TerraformState.resources(dir.resolve("live").resolve(UNIT))).isEmpty();
  }

  @Test
  void theStateAfterAnApplyIsReadWithTheApplyRoleSoTheApplyTaskNeedsNoPlanRole() {
    String planRole = "arn:aws:iam::111111111111:role/livegate-plan";
    String applyRole = "arn:aws:iam::111111111111:role/livegate-apply";
    ScriptedCommandRunner runner = new ScriptedCommandRunner();
    runner.result(
        dir,
        "show",
        new CommandResult(
            0,
            "{\"values\":{\"root_module\":{\"resources\":[{\"address\":\"terraform_data.app\","
                + "\"mode\":\"managed\",\"provider_name\":\""
                + BUILTIN
                + "\"}]}}}",
            false));
    TerraRun terragrunt =
        new TerraRun(
            new SandboxedPlan.Tools(
                runner,
                RunnerArgv.TERRAGRUNT,
                Sandbox.none("terraform runs without a sandbox"),
                Map.of()),
            dir,
            dir.resolve("plans"),
            SourceAccess.in(dir.resolve("state")));
    Execution execution = execution("d1-app", List.of());
    ExecutionSpec spec = execution.spec();
    Execution withRoles =
        new Execution(
            execution.id(),
            execution.deploymentId(),
            execution.name(),
            new ExecutionSpec(
                spec.unit(),
                spec.account(),
                spec.layer(),
                spec.dependsOn(),
                spec.planCommands(),
                spec.applyCommands(),
                spec.voters(),
                spec.minApprovals(),
                spec.minRejections(),
                planRole,
                applyRole,
                spec.rollback(),
                spec.destroyTargets(),
                false),
            execution.status(),
            execution.dependsOn(),
            null,
            null,
            null,
            List.of(),
            null,
            execution.createdAt(),
            execution.startedAt(),
            null);

    assertThat(terragrunt.newResources(withRoles, Set.of(BUILTIN)))
        .containsExactly("terraform_data.app");

    assertThat(runner.calls("show")).hasSize(1);
    List<String> argv = runner.calls("show").get(0).command().argv();
    assertThat(argv).containsSequence("--iam-assume-role", applyRole).doesNotContain(planRole);
  }

  @Test
  void aPlanVotedOnBeforeSummariesListedTheChangedResourcesIsStillApplied() {
    Execution planned = planned(execution("d1-app", List.of()));
    assertThat(planned.planSummary().firstChanges()).containsExactly("terraform_data.app: create");
    PlanSummary recorded = planned.planSummary();
    // what an earlier livegate recorded for the same plan: the counts, without the listing
    Execution votedEarlier =
        shown(
            planned,
            new PlanSummary(
                recorded.add(),
                recorded.change(),
                recorded.destroy(),
                recorded.newProviders(),
                recorded.destroyed()));

    UnitRunner.Step<List<String>> applied = terraRun.apply(votedEarlier, Set.of(BUILTIN));

    assertThat(applied.error()).isNull();
    assertThat(TerraformState.ids(dir.resolve("live").resolve(UNIT)).keySet())
        .containsExactly("terraform_data.app");
  }

  /**
   * terraform 1.11 plans into a full file system, prints "Saved the plan to" and exits 0, leaving
   * the plan file livegate handed it empty; its {@code show} then fails "zip: not a valid zip
   * file", which read as the unit's failure (CrashSuiteTest's full disk, under load, once the disk
   * had space again by the time livegate looked). The empty file itself now says the write was
   * refused: a shortage of disk space, which leaves the unit to resume.
   */
  @Test
  void aPlanThatTerraformReportsSavedIntoAFullFileSystemIsTheMachinesShortageNotTheUnits()
      throws Exception {
    try (SmallFileSystem plans = SmallFileSystem.mount(dir.resolve("small-plans"), "2m")) {
      plans.fill(plans.directory().resolve("filler"));
      TerraRun full = terraRun(dir.resolve("live"), plans.directory());

      UnitRunner.Step<UnitRunner.Plan> planned = full.plan(execution("d1-app", List.of()));

      System.out.println(planned.error());
      assertThat(planned.error())
          .startsWith("plan exited with 0 but wrote nothing into " + plans.directory());
      assertThat(ResourceShortage.in(planned.error()))
          .map(ResourceShortage::resource)
          .contains("disk space");
    }
  }

  /** {@code planned} as if its voters had been shown {@code summary}. */
  private static Execution shown(Execution planned, PlanSummary summary) {
    return new Execution(
        planned.id(),
        planned.deploymentId(),
        planned.name(),
        planned.spec(),
        planned.status(),
        planned.dependsOn(),
        planned.planArtifact(),
        planned.planSha256(),
        summary,
        planned.newResources(),
        planned.decision(),
        planned.createdAt(),
        planned.startedAt(),
        planned.finishedAt());
  }

  private Execution planned(Execution execution) {
    return UnitExecutions.planned(terraRun, execution);
  }

  private static Execution execution(String name, List<String> destroyTargets) {
    return UnitExecutions.execution(UNIT, name, destroyTargets);
  }
}
