package io.livegate.scan;

import static io.livegate.scan.testing.ReferenceScenario.DEV;
import static io.livegate.scan.testing.ReferenceScenario.SHARED;
import static io.livegate.scan.testing.ReferenceScenario.dependency;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.livegate.core.LivegateException;
import io.livegate.core.ProgressListener;
import io.livegate.core.account.Account;
import io.livegate.core.account.Accounts;
import io.livegate.core.runner.CommandResult;
import io.livegate.core.runner.RunnerArgv;
import io.livegate.core.stack.DeployStack;
import io.livegate.core.stack.PlannedExecution;
import io.livegate.core.stack.Reason;
import io.livegate.core.stack.ScanMode;
import io.livegate.core.testing.ScriptedCommandRunner;
import io.livegate.core.testing.ScriptedCommandRunner.Call;
import io.livegate.core.testing.ScriptedSandbox;
import io.livegate.scan.testing.ReferenceScenario;
import io.livegate.scan.testing.TestRepo;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PlanScanTest {
  private static final String PLAN_ROLE = "arn:aws:iam::111111111111:role/livegate-plan";

  @TempDir Path dir;
  private TestRepo repo;
  private final ScriptedCommandRunner runner = new ScriptedCommandRunner();
  private final ScriptedSandbox sandbox = new ScriptedSandbox();

  @AfterEach
  void closeRepo() {
    if (repo != null) {
      repo.close();
    }
  }

  /** a <- b <- c, and d <- e: c depends on b, which depends on a; e depends on d. */
  private void chains() {
    repo = TestRepo.create(dir);
    repo.write("a/terragrunt.hcl", "");
    repo.write("b/terragrunt.hcl", dependency("a", "../a"));
    repo.write("c/terragrunt.hcl", dependency("b", "../b"));
    repo.write("d/terragrunt.hcl", "");
    repo.write("e/terragrunt.hcl", "dependencies {\n  paths = [\"../d\"]\n}\n");
    repo.commit("chains");
  }

  @Test
  void whereConcurrentCommandsSeeEachOtherUnitsOfDifferentAccountsAreNeverPlannedAtOnce() {
    repo = ReferenceScenario.write(TestRepo.create(dir));
    repo.commit("reference scenario");
    for (String account : List.of(SHARED, DEV)) {
      for (String unit : List.of("global", "baz", "doo")) {
        runner.delay(unitDir(ReferenceScenario.unit(account, unit)), Duration.ofMillis(200));
      }
    }
    Function<Call, String> account = call -> dir.relativize(call.directory()).getName(0).toString();

    scan(ScriptedSandbox.oneUserForAll(), RunnerArgv.TERRAGRUNT, ReferenceScenario.accounts(), 2);

    assertThat(runner.calls(ScriptedCommandRunner.PLAN)).hasSize(10);
    assertThat(runner.overlapsAcross(account)).isEmpty();
    assertThat(runner.maxConcurrentCalls()).as("baz and doo of one account at once").isEqualTo(2);
  }

  @Test
  void whereConcurrentCommandsCannotSeeEachOtherAccountsArePlannedAtOnce() {
    repo = ReferenceScenario.write(TestRepo.create(dir));
    repo.commit("reference scenario");
    for (String account : List.of(SHARED, DEV)) {
      runner.delay(unitDir(ReferenceScenario.unit(account, "global")), Duration.ofMillis(200));
    }
    Function<Call, String> account = call -> dir.relativize(call.directory()).getName(0).toString();

    scan(RunnerArgv.TERRAGRUNT, ReferenceScenario.accounts(), 2);

    assertThat(runner.overlapsAcross(account)).isNotEmpty();
  }

  /** A unit in each of two accounts: prod has a plan role, dev has none. */
  private Accounts prodWithAPlanRoleAndDevWithout() {
    repo = TestRepo.create(dir);
    repo.write("prod/app/terragrunt.hcl", "");
    repo.write("dev/app/terragrunt.hcl", "");
    repo.commit("two accounts");
    return Accounts.of(
        List.of(
            Account.of("prod", "prod", List.of()).withRoles(PLAN_ROLE, null),
            Account.of("dev", "dev", List.of())));
  }

  private Path unitDir(String unit) {
    return dir.resolve(unit);
  }

  private DeployStack scan(RunnerArgv kind, Accounts accounts, int parallelism) {
    return scan(sandbox, kind, accounts, parallelism);
  }

  private DeployStack scan(
      ScriptedSandbox sandbox, RunnerArgv kind, Accounts accounts, int parallelism) {
    return new PlanScan(
            new SandboxedPlan.Tools(runner, kind, sandbox, Map.of("TF_IN_AUTOMATION", "1")),
            ProgressListener.silent())
        .run(
            ScanCommand.builder(dir, accounts)
                .base("HEAD")
                .head("HEAD")
                .parallelism(parallelism)
                .build());
  }

  private DeployStack scan() {
    return scan(RunnerArgv.TERRAGRUNT, Accounts.wholeRepository(), 1);
  }

  private static List<String> units(DeployStack stack) {
    return stack.executions().stream().map(PlannedExecution::unit).toList();
  }

  private List<String> plannedUnits() {
    return runner.calls(ScriptedCommandRunner.PLAN).stream()
        .map(call -> dir.relativize(call.directory()).toString())
        .toList();
  }

  private static PlannedExecution execution(DeployStack stack, String unit) {
    return stack.executions().stream()
        .filter(execution -> execution.unit().equals(unit))
        .findFirst()
        .orElseThrow();
  }

  @Test
  void exitCodeTwoMarksAUnitChangedAndZeroLeavesItOut() {
    chains();
    runner.exitCode(unitDir("a"), 0).exitCode(unitDir("d"), 2);

    DeployStack stack = scan();

    assertThat(stack.scan()).isEqualTo(ScanMode.PLAN);
    assertThat(units(stack)).containsExactly("d", "e");
    assertThat(execution(stack, "d").reasons())
        .containsExactly(new Reason(Reason.Kind.PLAN_HAS_CHANGES, null, null));
    assertThat(execution(stack, "e").reasons()).containsExactly(Reason.dependsOn("d"));
    assertThat(execution(stack, "e").layer()).isEqualTo(1);
  }

  @Test
  void everyPlanRunsTheChangesCodeInTheSandboxWithTheRepositoryAndNoPlanFile() {
    chains();

    scan();

    assertThat(runner.calls())
        .hasSize(5)
        .allSatisfy(
            call ->
                assertThat(call.command().argv())
                    .startsWith(ScriptedSandbox.PROGRAM, dir.toRealPath().toString(), "--"));
  }

  @Test
  void noUnitWithChangesGivesAnEmptyStack() {
    chains();

    DeployStack stack = scan();

    assertThat(stack.executions()).isEmpty();
    assertThat(plannedUnits()).containsExactlyInAnyOrder("a", "b", "c", "d", "e");
  }

  @Test
  void dependentsOfAChangedUnitAreInTheStackButAreNotPlanned() {
    chains();
    runner.exitCode(unitDir("a"), 2);

    DeployStack stack = scan();

    assertThat(units(stack)).containsExactly("a", "b", "c");
    assertThat(stack.executions()).extracting(PlannedExecution::layer).containsExactly(0, 1, 2);
    assertThat(execution(stack, "b").reasons()).containsExactly(Reason.dependsOn("a"));
    assertThat(execution(stack, "c").reasons()).containsExactly(Reason.dependsOn("b"));
    assertThat(plannedUnits()).containsExactlyInAnyOrder("a", "d", "e");
  }

  @Test
  void anyOtherExitCodeFailsTheScanNamingTheUnitWithTheOutputTail() {
    chains();
    String output =
        IntStream.rangeClosed(1, 30).mapToObj(i -> "line " + i).collect(Collectors.joining("\n"))
            + "\nError: Unsupported argument\n";
    runner.result(unitDir("b"), new CommandResult(1, output, false));

    assertThatThrownBy(this::scan)
        .isInstanceOf(LivegateException.class)
        .hasMessageContaining("b: exited with 1")
        .hasMessageContaining("Error: Unsupported argument")
        .hasMessageContaining("line 30")
        .hasMessageContaining("line 12")
        .hasMessageNotContaining("line 11")
        .hasMessageContaining("c: not planned, because b failed to plan");
    assertThat(plannedUnits()).doesNotContain("c");
  }

  @Test
  void exitCodeOneIsAFailureEvenWhenOtherUnitsHaveChanges() {
    chains();
    runner.exitCode(unitDir("a"), 2).exitCode(unitDir("d"), 1);

    assertThatThrownBy(this::scan)
        .isInstanceOf(LivegateException.class)
        .hasMessageStartingWith("2 units could not be planned")
        .hasMessageContaining("d: exited with 1");
  }

  @Test
  void aTimedOutPlanFailsTheScanNamingTheUnit() {
    chains();
    runner.result(unitDir("d"), new CommandResult(-1, "Refreshing state...\nstill waiting", true));

    assertThatThrownBy(this::scan)
        .isInstanceOf(LivegateException.class)
        .hasMessageContaining("d: timed out")
        .hasMessageContaining("still waiting")
        .hasMessageContaining("e: not planned, because d failed to plan");
  }

  @Test
  void aFailedInitWithTheTerraformRunnerFailsTheUnitWithoutPlanningIt() {
    chains();
    runner.result(
        unitDir("a"), "init", new CommandResult(1, "Error: Unclosed configuration block", false));

    assertThatThrownBy(() -> scan(RunnerArgv.TERRAFORM, Accounts.wholeRepository(), 1))
        .isInstanceOf(LivegateException.class)
        .hasMessageContaining("a: exited with 1")
        .hasMessageContaining("Error: Unclosed configuration block");
    assertThat(plannedUnits()).containsExactlyInAnyOrder("d", "e");
  }

  @Test
  void terraformRunnerInitsThenPlansEachUnitWithDetailedExitCode() {
    chains();
    runner.exitCode(unitDir("d"), 2);

    DeployStack stack = scan(RunnerArgv.TERRAFORM, Accounts.wholeRepository(), 1);

    assertThat(units(stack)).containsExactly("d", "e");
    List<Call> forA =
        runner.calls().stream().filter(call -> call.directory().equals(unitDir("a"))).toList();
    assertThat(forA).extracting(Call::verb).containsExactly("init", "plan");
    assertThat(ScriptedSandbox.unwrap(forA.get(1).command().argv()))
        .containsExactly(
            "terraform",
            "-chdir=" + unitDir("a"),
            "plan",
            "-detailed-exitcode",
            "-no-color",
            "-input=false",
            "-lock=false");
    assertThat(forA.get(1).command().environment()).containsEntry("TF_IN_AUTOMATION", "1");
  }

  @Test
  void aDependencyIsPlannedBeforeItsDependentsEvenWithParallelismTwo() {
    repo = ReferenceScenario.write(TestRepo.create(dir));
    repo.commit("reference scenario");
    for (String account : List.of(SHARED, DEV)) {
      runner.delay(unitDir(ReferenceScenario.unit(account, "global")), Duration.ofMillis(150));
      runner.delay(unitDir(ReferenceScenario.unit(account, "baz")), Duration.ofMillis(100));
    }

    DeployStack stack = scan(RunnerArgv.TERRAGRUNT, ReferenceScenario.accounts(), 2);

    assertThat(stack.executions()).isEmpty();
    List<Call> plans = runner.calls(ScriptedCommandRunner.PLAN);
    assertThat(plans).hasSize(10);
    assertThat(runner.maxConcurrentCalls()).isEqualTo(2);
    Map<String, Call> byUnit =
        plans.stream()
            .collect(Collectors.toMap(call -> dir.relativize(call.directory()).toString(), c -> c));
    for (String account : List.of(SHARED, DEV)) {
      List<List<String>> edges =
          List.of(
              List.of("baz", "global"),
              List.of("doo", "global"),
              List.of("bar", "baz"),
              List.of("bar", "global"),
              List.of("foo", "bar"));
      for (List<String> edge : edges) {
        Call dependent = byUnit.get(ReferenceScenario.unit(account, edge.get(0)));
        Call dependency = byUnit.get(ReferenceScenario.unit(account, edge.get(1)));
        assertThat(dependency.finished())
            .as("%s finishes before %s starts", dependency.directory(), dependent.directory())
            .isLessThan(dependent.started());
      }
    }
  }

  @Test
  void theTerraformRunnerRefusesAUnitWhoseAccountHasAPlanRoleRunningNothingForIt() {
    Accounts accounts = prodWithAPlanRoleAndDevWithout();

    assertThatThrownBy(() -> scan(RunnerArgv.TERRAFORM, accounts, 1))
        .isInstanceOf(LivegateException.class)
        .hasMessageContaining(
            "prod/app: the terraform runner cannot assume the plan role "
                + PLAN_ROLE
                + " of prod/app; use the terragrunt runner, or remove the account's plan_role;"
                + " nothing was run");
    assertThat(runner.calls())
        .extracting(call -> dir.relativize(call.directory()).toString())
        .containsOnly("dev/app");
  }

  @Test
  void terragruntArgvCarriesThePlanRoleOnlyWhenTheAccountHasOne() {
    Accounts accounts = prodWithAPlanRoleAndDevWithout();

    scan(RunnerArgv.TERRAGRUNT, accounts, 1);

    Map<String, List<String>> argv =
        runner.calls().stream()
            .collect(
                Collectors.toMap(
                    call -> dir.relativize(call.directory()).toString(),
                    call -> ScriptedSandbox.unwrap(call.command().argv())));
    assertThat(argv.get("prod/app"))
        .containsExactly(
            "terragrunt",
            "run",
            "--working-dir",
            unitDir("prod/app").toString(),
            "--non-interactive",
            "--log-disable",
            "--iam-assume-role",
            PLAN_ROLE,
            "--",
            "plan",
            "-detailed-exitcode",
            "-no-color",
            "-input=false",
            "-lock=false");
    assertThat(argv.get("dev/app"))
        .containsExactly(
            "terragrunt",
            "run",
            "--working-dir",
            unitDir("dev/app").toString(),
            "--non-interactive",
            "--log-disable",
            "--",
            "plan",
            "-detailed-exitcode",
            "-no-color",
            "-input=false",
            "-lock=false");
  }

  @Test
  void oddUnitPathsArriveAsSingleArgvElements() {
    List<String> odd =
        List.of(
            "odd/with space",
            "odd/$(touch pwned)",
            "odd/quote\"d 'and' `ticks`",
            "odd/semi; rm -rf ~",
            "odd/-rf");
    repo = TestRepo.create(dir);
    odd.forEach(unit -> repo.write(unit + "/terragrunt.hcl", ""));
    repo.commit("odd names");
    odd.forEach(unit -> runner.exitCode(unitDir(unit), 2));

    DeployStack terragrunt = scan(RunnerArgv.TERRAGRUNT, Accounts.wholeRepository(), 2);
    List<Call> terragruntCalls = runner.calls();
    DeployStack terraform = scan(RunnerArgv.TERRAFORM, Accounts.wholeRepository(), 2);

    assertThat(units(terragrunt)).containsExactlyInAnyOrderElementsOf(odd);
    assertThat(units(terraform)).containsExactlyInAnyOrderElementsOf(odd);
    for (String unit : odd) {
      String directory = unitDir(unit).toString();
      List<Call> calls =
          runner.calls().stream().filter(call -> call.directory().equals(unitDir(unit))).toList();
      assertThat(calls).hasSize(3);
      assertThat(calls.get(0).command().argv()).containsSubsequence("--working-dir", directory);
      assertThat(calls.get(1).command().argv()).contains("-chdir=" + directory);
      assertThat(calls.get(2).command().argv()).contains("-chdir=" + directory);
    }
    assertThat(terragruntCalls).hasSize(odd.size());
    assertThat(dir.resolve("pwned")).doesNotExist();
  }

  @Test
  void aPlanScanRefusesAHeadThatIsNotCheckedOut() {
    chains();
    repo.touch("a/terragrunt.hcl");
    repo.commit("second");

    assertThatThrownBy(
            () ->
                new PlanScan(
                        new SandboxedPlan.Tools(runner, RunnerArgv.TERRAGRUNT, sandbox, Map.of()),
                        ProgressListener.silent())
                    .run(
                        ScanCommand.builder(dir, Accounts.wholeRepository())
                            .base("HEAD~1")
                            .head("HEAD~1")
                            .parallelism(1)
                            .build()))
        .isInstanceOf(LivegateException.class)
        .hasMessageContaining("must have HEAD~1")
        .hasMessageContaining("checked out");
    assertThat(runner.calls()).isEmpty();
  }
}
