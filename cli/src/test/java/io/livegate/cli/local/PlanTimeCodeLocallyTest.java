package io.livegate.cli.local;

import static org.assertj.core.api.Assertions.assertThat;

import io.livegate.cli.CliRun;
import io.livegate.cli.DriftedRepo;
import io.livegate.cli.Livegate;
import io.livegate.core.runner.RunnerArgv;
import io.livegate.process.PlanTimeSpy;
import io.livegate.process.ProcessCommandRunner;
import io.livegate.process.TerraRun;
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
 * In the local runtime, as livegate wires it, a plan-time provider of the change being deployed can
 * neither read the metadb's password nor log in to the metadb; and the plans of {@code scan --scan
 * plan} and {@code drift} run in the same sandbox as a deployment's.
 */
@Tag("terraform")
class PlanTimeCodeLocallyTest {
  private static final String UNIT = "app";

  @TempDir Path dir;

  @Test
  void aPlanTimeProviderCannotReadTheMetadbPasswordNorLogInToTheMetadb() throws Exception {
    TestRepo repo = TestRepo.create(dir.resolve("live"));
    repo.write(UNIT + "/main.tf", "resource \"terraform_data\" \"app\" {}\n");
    try (LocalWiring wiring = new LocalWiring(dir.resolve("state"))) {
      Path passwordFile = LocalMetadb.passwordFile(wiring.state.metadb());
      String password = Files.readString(passwordFile).strip();
      Map<String, String> attempts = new LinkedHashMap<>();
      attempts.put("read the metadb password", "cat " + passwordFile);
      attempts.put(
          "log in to the metadb",
          "PGCONNECT_TIMEOUT=5 psql -w -h 127.0.0.1 -p "
              + wiring.metadb.port()
              + " -U postgres -At -c \"select 'metadb-' || 'reached'\"");
      PlanTimeSpy spy =
          PlanTimeSpy.install(repo.root().resolve(".spy"), repo.root().resolve(UNIT), attempts);
      TerraRun terraRun =
          new TerraRun(
              new SandboxedPlan.Tools(
                  new ProcessCommandRunner(),
                  RunnerArgv.TERRAFORM,
                  wiring.sandbox,
                  spy.environment()),
              repo.root(),
              wiring.state.plans(),
              wiring.sources);

      terraRun.plan(UNIT, "d1-app", RunnerArgv.TERRAFORM.planCommands(UNIT, null, List.of()), null);

      System.out.println(wiring.sandbox.description());
      System.out.println("what the plan-time provider saw:\n" + spy.log());
      assertThat(spy.lines()).contains("== read the metadb password", "== log in to the metadb");
      assertThat(spy.log()).doesNotContain(password).doesNotContain("metadb-reached");
    }
  }

  @Test
  void aPlanScansProviderRunsInTheSandbox() throws Exception {
    TestRepo repo = TestRepo.create(dir.resolve("live"));
    repo.write("README.md", "apps\n");
    repo.commit("empty");
    repo.write(UNIT + "/terragrunt.hcl", "inputs = {}\n")
        .write(UNIT + "/main.tf", "resource \"terraform_data\" \"app\" {}\n");
    Map<String, String> attempts = outsideTheRepository();
    PlanTimeSpy spy = PlanTimeSpy.installInUnit(repo.root().resolve(UNIT), attempts);
    repo.commit("app, with a provider of its own");

    CliRun scan = planScanOfTheLastCommit(repo, System.getenv());

    System.out.println("what the plan scan's provider saw:\n" + spy.log());
    assertThat(scan.exitCode()).as(scan.toString()).isEqualTo(Livegate.EXIT_FAILURE);
    assertThat(scan.err()).contains("terraform runs in a bubblewrap sandbox");
    assertEveryAttemptFailed(spy, attempts);
  }

  @Test
  void aDriftPlansProviderRunsInTheSandboxAwayFromTheStateDirectory() throws Exception {
    DriftedRepo drifted = DriftedRepo.deployThenChangeAOutOfBand(dir);
    Path password = drifted.state().resolve("metadb-password");
    assertThat(password).exists();
    Map<String, String> attempts = outsideTheRepository();
    attempts.put("read the metadb password", "cat " + password);
    attempts.put("list the state directory", "ls -A " + drifted.state() + " | grep .");
    PlanTimeSpy spy = PlanTimeSpy.installInUnit(drifted.repo().root().resolve("app/b"), attempts);
    drifted.repo().commit("b gets a provider of its own");

    CliRun drift = drifted.drift("--state-dir", drifted.state().toString());

    System.out.println("what drift's provider saw:\n" + spy.log());
    assertThat(drift.exitCode()).as(drift.toString()).isEqualTo(Livegate.EXIT_FAILURE);
    assertThat(drift.out()).contains("app/a");
    assertThat(drift.err()).contains("terraform runs in a bubblewrap sandbox");
    assertEveryAttemptFailed(spy, attempts);
  }

  @Test
  void getEnvInAStacksValuesSeesNoLivegateSettingInThePlanScan() throws Exception {
    TestRepo repo = TestRepo.create(dir.resolve("live"));
    repo.write("README.md", "stacks\n");
    repo.commit("empty");
    repo.write("catalog/app/terragrunt.hcl", "inputs = {}\n")
        .write("catalog/app/main.tf", "resource \"terraform_data\" \"app\" {}\n")
        .write(
            "prod/terragrunt.stack.hcl",
            "unit \"app\" {\n"
                + "  source = \"${get_repo_root()}/catalog/app\"\n"
                + "  path   = \"app\"\n"
                + "  values = {\n"
                + "    token     = get_env(\"LIVEGATE_GITHUB_TOKEN\", \"unset\")\n"
                + "    automated = get_env(\"TF_IN_AUTOMATION\", \"unset\")\n"
                + "  }\n}\n")
        .write(".gitignore", ".terraform/\n.terraform.lock.hcl\n.terragrunt-stack/\n");
    // the generated unit's own provider reads the values file from its working directory: a plan
    // runs in a throwaway copy of the checkout, so only the code being planned sees that file
    Map<String, String> attempts = new LinkedHashMap<>();
    attempts.put("read the values this unit was generated with", "cat terragrunt.values.hcl");
    PlanTimeSpy spy = PlanTimeSpy.installInUnit(repo.root().resolve("catalog/app"), attempts);
    repo.commit("a stack whose values read the environment");
    Map<String, String> environment = new HashMap<>(System.getenv());
    environment.put("LIVEGATE_GITHUB_TOKEN", "ghs_livegates-own-token");
    environment.put("TF_IN_AUTOMATION", "1");

    CliRun scan = planScanOfTheLastCommit(repo, environment);

    System.out.println("what the generated unit's provider saw:\n" + spy.log());
    assertThat(scan.exitCode()).as(scan.toString()).isEqualTo(Livegate.EXIT_FAILURE);
    assertThat(spy.exits())
        .as(scan + "\n" + spy.log())
        .containsEntry("read the values this unit was generated with", 0);
    assertThat(spy.log())
        .doesNotContain("ghs_livegates-own-token")
        .containsPattern("token\\s*=\\s*\"unset\"")
        .containsPattern("automated\\s*=\\s*\"1\"");
  }

  /** {@code scan --scan plan} of {@code repo}'s last commit with the terraform runner. */
  private static CliRun planScanOfTheLastCommit(TestRepo repo, Map<String, String> environment) {
    return CliRun.inEnvironment(
        environment,
        "scan",
        "--repo",
        repo.root().toString(),
        "--base",
        "HEAD~1",
        "--scan",
        "plan",
        "--runner",
        "terraform");
  }

  /** What a provider tries outside the repository, whatever livegate command runs it. */
  private static Map<String, String> outsideTheRepository() {
    Map<String, String> attempts = new LinkedHashMap<>();
    attempts.put(
        "read livegate's environment",
        "tr '\\0' '\\n' < /proc/" + ProcessHandle.current().pid() + "/environ | grep -c .");
    attempts.put(
        "read the file livegate reads this command's output from",
        "f=$(readlink /proc/$PPID/fd/1) && echo \"terraform writes to $f\" && ls \"$f\"");
    return attempts;
  }

  private static void assertEveryAttemptFailed(PlanTimeSpy spy, Map<String, String> attempts)
      throws Exception {
    assertThat(spy.exits())
        .as("the spy ran at plan time, and every attempt failed")
        .containsOnlyKeys(attempts.keySet())
        .allSatisfy((attempt, exit) -> assertThat(exit).as(attempt).isNotZero());
  }
}
