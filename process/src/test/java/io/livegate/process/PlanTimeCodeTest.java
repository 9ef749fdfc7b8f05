package io.livegate.process;

import static org.assertj.core.api.Assertions.assertThat;

import io.livegate.core.runner.PrivateTemp;
import io.livegate.core.runner.RunnerArgv;
import io.livegate.core.runner.Sandbox;
import io.livegate.core.unit.UnitRunner;
import io.livegate.scan.SandboxedPlan;
import io.livegate.scan.testing.TestRepo;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The code being deployed runs at plan time, before anyone voted: a provider from a filesystem
 * mirror that is really a script tries to take what would let it approve itself.
 */
@Tag("terraform")
class PlanTimeCodeTest {
  private static final String UNIT = "app";

  @TempDir Path dir;

  @Test
  void aPlanTimeProviderSeesNoLivegateSecretInItsEnvironment() throws Exception {
    TestRepo repo = TestRepo.create(dir.resolve("live"));
    repo.write(UNIT + "/main.tf", "resource \"terraform_data\" \"app\" {}\n");
    PlanTimeSpy spy =
        PlanTimeSpy.install(
            dir,
            repo.root().resolve(UNIT),
            Map.of("environment", "env | grep -E '^[A-Za-z_][A-Za-z0-9_]*=' | sort"));
    Map<String, String> environment = new HashMap<>(spy.environment());
    environment.put("LIVEGATE_WEBHOOK_SECRET", "webhook-secret-value");
    environment.put("LIVEGATE_GITHUB_TOKEN", "github-token-value");
    environment.put("LIVEGATE_TASK_TOKEN", "task-token-value");
    environment.put("LIVEGATE_DB_PASSWORD", "metadb-password-value");
    environment.put("TF_IN_AUTOMATION", "1");
    TerraRun terraRun =
        new TerraRun(
            new SandboxedPlan.Tools(
                new ProcessCommandRunner(),
                RunnerArgv.TERRAFORM,
                Sandbox.none("terraform runs without a sandbox"),
                environment),
            repo.root(),
            Files.createDirectories(dir.resolve("plans")));

    UnitRunner.Step<UnitRunner.Plan> plan =
        terraRun.plan(
            UNIT, "d1-app", RunnerArgv.TERRAFORM.planCommands(UNIT, null, List.of()), null);

    System.out.println("what the plan-time provider saw:\n" + spy.log());
    assertThat(plan.error()).as("the spy is no real provider").isNotNull();
    assertThat(spy.lines()).as("the spy ran at plan time").contains("== environment");
    assertThat(spy.lines()).contains("TF_IN_AUTOMATION=1");
    assertThat(spy.log())
        .doesNotContain("LIVEGATE_")
        .doesNotContain("webhook-secret-value")
        .doesNotContain("github-token-value")
        .doesNotContain("task-token-value")
        .doesNotContain("metadb-password-value");
  }

  @Test
  void inTheSandboxAPlanTimeProviderCannotReadTheStateDirectoryNorOverwriteAnotherUnitsPlan()
      throws Exception {
    TestRepo repo = TestRepo.create(dir.resolve("live"));
    repo.write(UNIT + "/main.tf", "resource \"terraform_data\" \"app\" {}\n");
    Path state = Files.createDirectories(dir.resolve("state"));
    Path voteKey = Files.writeString(state.resolve("vote-secret"), "vote-key-value");
    Path plans = Files.createDirectories(state.resolve("plans"));
    Path otherPlan = Files.writeString(plans.resolve("d1-other.tfplan"), "the approved plan");
    long livegate = ProcessHandle.current().pid();
    Map<String, String> attempts = new LinkedHashMap<>();
    attempts.put("read the vote key", "cat " + voteKey);
    attempts.put("list the state directory", "ls -A " + state);
    attempts.put("overwrite another unit's plan", "echo swapped > " + otherPlan);
    attempts.put("read livegate's environment", "tr '\\0' '\\n' < /proc/" + livegate + "/environ");
    attempts.put(
        "read the vote key through livegate's root", "cat /proc/" + livegate + "/root" + voteKey);
    attempts.put("see other processes", "ls /proc | grep -c '^[0-9]'");
    PlanTimeSpy spy =
        PlanTimeSpy.install(repo.root().resolve(".spy"), repo.root().resolve(UNIT), attempts);

    UnitRunner.Step<UnitRunner.Plan> plan = planInTheSandbox(repo, state, plans, spy);

    System.out.println("what the sandboxed plan-time provider saw:\n" + spy.log());
    System.out.println("the plan: " + plan.error());
    assertThat(plan.error()).as("the spy is no real provider").isNotNull();
    assertThat(spy.lines()).as("the spy ran at plan time").contains("== read the vote key");
    assertThat(spy.log()).doesNotContain("vote-key-value").doesNotContain("LIVEGATE_");
    assertThat(spy.lines())
        .as("the state directory looks empty but for the plan being written")
        .containsSubsequence("== list the state directory", "plans", "-> exit 0");
    assertThat(Files.readString(otherPlan)).isEqualTo("the approved plan");
    assertThat(Files.readString(voteKey)).isEqualTo("vote-key-value");
  }

  @Test
  void inTheSandboxAPlanTimeProviderCannotReachLivegatesOwnTemporaryFilesInTmp() throws Exception {
    TestRepo repo = TestRepo.create(dir.resolve("live"));
    repo.write(UNIT + "/main.tf", "resource \"terraform_data\" \"app\" {}\n");
    Path state = Files.createDirectories(dir.resolve("state"));
    Path plans = Files.createDirectories(state.resolve("plans"));
    // the output of another command livegate runs meanwhile, where livegate keeps it
    Path otherRun = PrivateTemp.directory("run-");
    Path otherOutput = Files.writeString(otherRun.resolve("stdout"), "output-of-another-command");
    // only paths this test made: /tmp is shared with everything else on the machine
    Map<String, String> attempts = new LinkedHashMap<>();
    attempts.put(
        "find the file livegate reads this command's output from",
        "f=$(readlink /proc/$PPID/fd/1) && echo \"terraform writes to $f\" && ls \"$f\"");
    attempts.put("read another command's output", "cat " + otherOutput);
    attempts.put(
        "rewrite another command's output", "echo forged-by-the-provider >> " + otherOutput);
    attempts.put(
        "leave a file beside another command's output", "echo planted > " + otherRun + "/planted");
    PlanTimeSpy spy =
        PlanTimeSpy.install(repo.root().resolve(".spy"), repo.root().resolve(UNIT), attempts);

    UnitRunner.Step<UnitRunner.Plan> plan = planInTheSandbox(repo, state, plans, spy);

    System.out.println("what the sandboxed plan-time provider saw in /tmp:\n" + spy.log());
    assertThat(plan.error()).as("the spy is no real provider").isNotNull();
    assertThat(spy.exits())
        .as("every attempt failed")
        .containsOnlyKeys(attempts.keySet())
        .allSatisfy((attempt, exit) -> assertThat(exit).as(attempt).isNotZero());
    assertThat(spy.log()).doesNotContain("output-of-another-command");
    assertThat(Files.readString(otherOutput)).isEqualTo("output-of-another-command");
    assertThat(otherRun.resolve("planted")).doesNotExist();
  }

  /**
   * The unit's plan in the bubblewrap sandbox that hides {@code state}, with the spy as provider.
   */
  private static UnitRunner.Step<UnitRunner.Plan> planInTheSandbox(
      TestRepo repo, Path state, Path plans, PlanTimeSpy spy) {
    Sandbox sandbox = BubblewrapSandbox.find(List.of(state)).orElseThrow();
    TerraRun terraRun =
        new TerraRun(
            new SandboxedPlan.Tools(
                new ProcessCommandRunner(), RunnerArgv.TERRAFORM, sandbox, spy.environment()),
            repo.root(),
            plans);
    return terraRun.plan(
        UNIT, "d1-app", RunnerArgv.TERRAFORM.planCommands(UNIT, null, List.of()), null);
  }
}
