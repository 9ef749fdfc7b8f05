package io.livegate.scan;

import static org.assertj.core.api.Assertions.assertThat;

import io.livegate.core.ProgressListener;
import io.livegate.core.account.Account;
import io.livegate.core.account.Accounts;
import io.livegate.core.drift.DriftReport;
import io.livegate.core.runner.CommandResult;
import io.livegate.core.runner.PrivateTemp;
import io.livegate.core.runner.RunnerArgv;
import io.livegate.core.testing.ScriptedCommandRunner;
import io.livegate.core.testing.ScriptedSandbox;
import io.livegate.scan.testing.TestRepo;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * How drift judges each unit's plan: exit 0 is in sync, 2 is drift with the saved plan's changes,
 * anything else (or a plan that cannot be read back) is an error, never "no drift".
 */
class DriftScanTest {
  private static final String CHANGED_PLAN =
      """
      {"resource_changes":[
        {"address":"aws_instance.web","mode":"managed","change":{"actions":["update"]}},
        {"address":"aws_s3_bucket.logs","mode":"managed","change":{"actions":["no-op"]}}]}
      """;

  @TempDir Path dir;
  private TestRepo repo;
  private final ScriptedCommandRunner runner = new ScriptedCommandRunner();
  private final ScriptedSandbox sandbox = new ScriptedSandbox();

  @BeforeEach
  void fourUnits() {
    repo = TestRepo.create(dir);
    for (String unit : List.of("app/clean", "app/drifted", "app/broken", "app/unreadable")) {
      repo.write(unit + "/terragrunt.hcl", "");
    }
    repo.commit("four units");
  }

  @AfterEach
  void closeRepo() {
    repo.close();
  }

  private DriftReport drift(int parallelism) {
    return drift(RunnerArgv.TERRAGRUNT, parallelism);
  }

  private DriftReport drift(RunnerArgv kind, int parallelism) {
    return drift(
        sandbox,
        kind,
        Accounts.of(
            List.of(Account.of("apps", "app", List.of()).withRoles("arn:plan", "arn:apply"))),
        parallelism);
  }

  private DriftReport drift(
      ScriptedSandbox sandbox, RunnerArgv kind, Accounts accounts, int parallelism) {
    return new DriftScan(
            new SandboxedPlan.Tools(runner, kind, sandbox, Map.of()), ProgressListener.silent())
        .run(
            ScanCommand.builder(dir, accounts)
                .head("HEAD")
                .everyUnit()
                .parallelism(parallelism)
                .build());
  }

  @Test
  void theTerraformRunnerRefusesUnitsWhoseAccountHasAPlanRoleAsErrorsRunningNothing() {
    DriftReport report = drift(RunnerArgv.TERRAFORM, 2);

    assertThat(report.drifted()).isEmpty();
    assertThat(report.errors())
        .hasSize(4)
        .allSatisfy(
            error ->
                assertThat(error.error())
                    .isEqualTo(
                        "the terraform runner cannot assume the plan role arn:plan of "
                            + error.unit()
                            + "; use the terragrunt runner, or remove the account's plan_role;"
                            + " nothing was run"));
    assertThat(runner.calls()).isEmpty();
  }

  @Test
  void whereConcurrentCommandsSeeEachOtherOneAccountsUnitsArePlannedAtATime() {
    repo.write("ops/dns/terragrunt.hcl", "").write("ops/vpn/terragrunt.hcl", "").commit("ops");
    Accounts twoAccounts =
        Accounts.of(
            List.of(Account.of("apps", "app", List.of()), Account.of("ops", "ops", List.of())));
    for (String unit : List.of("app/clean", "app/drifted", "ops/dns", "ops/vpn")) {
      runner.delay(dir.resolve(unit), Duration.ofMillis(200));
    }
    Function<ScriptedCommandRunner.Call, String> account =
        call -> dir.relativize(call.directory()).getName(0).toString();

    DriftReport shared =
        drift(ScriptedSandbox.oneUserForAll(), RunnerArgv.TERRAFORM, twoAccounts, 3);

    assertThat(shared.planned()).isEqualTo(6);
    assertThat(runner.overlapsAcross(account)).isEmpty();
    assertThat(runner.maxConcurrentCalls())
        .as("one account's units still at once")
        .isGreaterThan(1);

    ScriptedCommandRunner apart = new ScriptedCommandRunner();
    for (String unit : List.of("app/clean", "ops/dns")) {
      apart.delay(dir.resolve(unit), Duration.ofMillis(200));
    }
    new DriftScan(
            new SandboxedPlan.Tools(apart, RunnerArgv.TERRAFORM, sandbox, Map.of()),
            ProgressListener.silent())
        .run(ScanCommand.builder(dir, twoAccounts).head("HEAD").everyUnit().parallelism(6).build());
    assertThat(apart.overlapsAcross(account)).as("a sandbox whose commands are apart").isNotEmpty();
  }

  @Test
  void eachUnitIsJudgedByItsOwnPlanAndErrorsAreNeverNoDrift() {
    runner.exitCode(dir.resolve("app/drifted"), 2);
    runner.result(
        dir.resolve("app/drifted"), "show", new CommandResult(0, "", CHANGED_PLAN, false));
    runner.result(dir.resolve("app/broken"), new CommandResult(1, "Error: no credentials", false));
    runner.exitCode(dir.resolve("app/unreadable"), 2);
    runner.result(
        dir.resolve("app/unreadable"), "show", new CommandResult(1, "show failed", false));

    DriftReport report = drift(2);

    assertThat(report.planned()).isEqualTo(4);
    assertThat(report.drifted())
        .containsExactly(
            new DriftReport.DriftedUnit(
                "app/drifted", "apps", List.of("aws_instance.web: update")));
    assertThat(report.errors())
        .extracting(DriftReport.DriftError::unit)
        .containsExactly("app/broken", "app/unreadable");
    assertThat(report.errors().get(0).error()).contains("exited with 1", "no credentials");
    assertThat(report.errors().get(1).error()).startsWith("show of the plan exited with 1");
    assertThat(report.inSync()).isFalse();
  }

  @Test
  void aUnitThatTerragruntLeavesOutOfPlansIsNotPlannedForDrift() {
    // Excluded units are left out of run --all plan: terragrunt v1.1.3
    // internal/discovery/discovery.go applyExcludeModules.
    repo.write(
            "app/frozen/terragrunt.hcl", "exclude {\n  if      = true\n  actions = [\"all\"]\n}\n")
        .write(
            "app/retired/terragrunt.hcl",
            "exclude {\n  if      = true\n  actions = [\"plan\"]\n}\n")
        .commit("two units left out of plans");

    DriftReport report = drift(2);

    assertThat(report.planned()).isEqualTo(4);
    assertThat(runner.calls(ScriptedCommandRunner.PLAN))
        .extracting(call -> dir.relativize(call.directory()).toString())
        .containsExactlyInAnyOrder("app/clean", "app/drifted", "app/broken", "app/unreadable");
  }

  @Test
  void everyPlanUsesThePlanRoleTheDetailedExitCodeAndSavesItsPlanFile() {
    DriftReport report = drift(2);

    assertThat(report.inSync()).isTrue();
    assertThat(runner.calls(ScriptedCommandRunner.PLAN))
        .hasSize(4)
        .allSatisfy(
            call ->
                assertThat(call.command().argv())
                    .contains("-detailed-exitcode", "--iam-assume-role", "arn:plan")
                    .anySatisfy(argument -> assertThat(argument).startsWith("-out=/")));
    assertThat(runner.maxConcurrentCalls()).isLessThanOrEqualTo(2);
  }

  @Test
  void aUnitThatAStackGeneratesIsWrittenIntoItsOwnCopyBeforeItIsPlannedAndTheCheckoutKeepsNone() {
    repo.write("catalog/web/terragrunt.hcl", "inputs = {\n  size = values.size\n}\n")
        .write(
            "app/terragrunt.stack.hcl",
            "unit \"web\" {\n  source = \"../catalog/web\"\n  path   = \"web\"\n"
                + "  values = {\n    size = \"small\"\n  }\n}\n");
    repo.commit("a stack");
    Path web = dir.resolve("app/.terragrunt-stack/web");

    DriftReport report = drift(2);

    assertThat(report.planned()).isEqualTo(5);
    assertThat(report.errors()).isEmpty();
    assertThat(runner.calls(ScriptedCommandRunner.PLAN))
        .extracting(ScriptedCommandRunner.Call::directory)
        .contains(web);
    assertThat(web).as("generated in the copy its plan ran in, which is gone").doesNotExist();
  }

  @Test
  void eachPlanRunsInTheSandboxWithOnlyItsOwnPlanFileKeptInLivegatesPrivateDirectory() {
    runner.exitCode(dir.resolve("app/drifted"), 2);
    runner.result(
        dir.resolve("app/drifted"), "show", new CommandResult(0, "", CHANGED_PLAN, false));

    drift(2);

    List<ScriptedCommandRunner.Call> calls = runner.calls();
    assertThat(calls)
        .allSatisfy(
            call ->
                assertThat(call.command().argv())
                    .startsWith(ScriptedSandbox.PROGRAM, dir.toRealPath().toString()));
    for (ScriptedCommandRunner.Call plan : runner.calls(ScriptedCommandRunner.PLAN)) {
      List<String> argv = plan.command().argv();
      Path planFile = Path.of(argv.get(2));
      assertThat(argv).containsSubsequence(planFile.toString(), "rw", "--");
      assertThat(argv).contains("-out=" + planFile);
      assertThat(planFile.startsWith(PrivateTemp.root())).as(planFile.toString()).isTrue();
    }
    assertThat(runner.calls(ScriptedCommandRunner.PLAN))
        .extracting(call -> call.command().argv().get(2))
        .doesNotHaveDuplicates();
    assertThat(runner.calls("show"))
        .singleElement()
        .satisfies(show -> assertThat(show.command().argv()).contains("ro"));
  }
}
