package io.livegate.cli;

import static io.livegate.scan.testing.ReferenceScenario.dependency;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.livegate.core.LivegateException;
import io.livegate.core.ProgressListener;
import io.livegate.core.account.Accounts;
import io.livegate.core.runner.Command;
import io.livegate.core.runner.CommandResult;
import io.livegate.core.runner.CommandRunner;
import io.livegate.core.runner.RunnerArgv;
import io.livegate.core.runner.Sandbox;
import io.livegate.core.stack.DeployStack;
import io.livegate.core.stack.PlannedExecution;
import io.livegate.core.stack.Reason;
import io.livegate.process.ProcessCommandRunner;
import io.livegate.scan.GraphScan;
import io.livegate.scan.PlanScan;
import io.livegate.scan.SandboxedPlan;
import io.livegate.scan.ScanCommand;
import io.livegate.scan.testing.TestRepo;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.eclipse.jgit.api.Git;
import org.eclipse.jgit.api.Status;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The plan scan against real terraform: four units of {@code terraform_data} with local state,
 * applied for real first, so that only an edited unit's plan shows changes. The units' {@code
 * terragrunt.hcl} files carry the dependencies; terraform itself ignores them.
 */
@Tag("terraform")
class PlanScanWithTerraformTest {
  private static final Map<String, String> TERRAFORM_ENVIRONMENT = Map.of("TF_IN_AUTOMATION", "1");
  private static final Duration TIMEOUT = Duration.ofMinutes(2);

  /** network <- database <- app, and monitoring on its own. */
  private static final List<String> UNITS = List.of("network", "database", "app", "monitoring");

  @TempDir Path dir;
  private TestRepo repo;
  private final ProcessCommandRunner terraform = new ProcessCommandRunner();
  private final List<Command> planScanCalls = new CopyOnWriteArrayList<>();
  private final CommandRunner recording =
      command -> {
        planScanCalls.add(command);
        return terraform.run(command);
      };

  @BeforeEach
  void applyEveryUnitAndCommit() {
    repo = TestRepo.create(dir);
    repo.write(
        ".gitignore",
        ".terraform/\n*.tfstate\n*.tfstate.*\n.terraform.lock.hcl\n.terraform.tfstate.lock.info\n");
    writeUnit("network", "", "v1");
    writeUnit("database", dependency("network", "../network"), "v1");
    writeUnit("app", dependency("database", "../database"), "v1");
    writeUnit("monitoring", "", "v1");
    for (String unit : UNITS) {
      terraform(unit, "init", "-input=false", "-no-color");
      terraform(unit, "apply", "-auto-approve", "-input=false", "-no-color");
    }
    repo.commit("four applied units");
  }

  @AfterEach
  void closeRepo() {
    repo.close();
  }

  private void writeUnit(String unit, String terragrunt, String input) {
    repo.write(unit + "/terragrunt.hcl", terragrunt);
    repo.write(unit + "/main.tf", mainTf(input));
  }

  private static String mainTf(String input) {
    return """
        terraform {
          backend "local" {
            path = "terraform.tfstate"
          }
        }

        resource "terraform_data" "this" {
          input = "%s"
        }
        """
        .formatted(input);
  }

  private void terraform(String unit, String... args) {
    List<String> argv = new ArrayList<>(List.of("terraform"));
    argv.addAll(List.of(args));
    CommandResult result =
        terraform.run(new Command(argv, dir.resolve(unit), TERRAFORM_ENVIRONMENT, TIMEOUT));
    assertThat(result.exitCode())
        .as("terraform %s in %s:\n%s", args[0], unit, result.output())
        .isZero();
  }

  private DeployStack planScan(String base, String head) {
    return new PlanScan(
            new SandboxedPlan.Tools(
                recording,
                RunnerArgv.TERRAFORM,
                Sandbox.none("the test runs terraform as itself"),
                TERRAFORM_ENVIRONMENT),
            line -> {})
        .run(
            ScanCommand.builder(dir, Accounts.wholeRepository())
                .base(base)
                .head(head)
                .parallelism(2)
                .build());
  }

  private List<String> plannedUnits() {
    return planScanCalls.stream()
        .filter(command -> command.argv().contains("plan"))
        // each unit plans in a throwaway copy of the repository, in the unit's directory there;
        // the units of this repository are top-level directories
        .map(command -> command.workingDirectory().getFileName().toString())
        .toList();
  }

  private static List<String> units(DeployStack stack) {
    return stack.executions().stream().map(PlannedExecution::unit).toList();
  }

  @Test
  void appliedUnitsWithoutEditsGiveAnEmptyStack() {
    DeployStack stack = planScan("HEAD", "HEAD");

    assertThat(stack.executions()).isEmpty();
    assertThat(plannedUnits()).containsExactlyInAnyOrderElementsOf(UNITS);
  }

  @Test
  void anEditedUnitAndItsDependentsAreTheStack() {
    repo.write("database/main.tf", mainTf("v2"));
    repo.commit("database v2");

    DeployStack stack = planScan("HEAD~1", "HEAD");

    assertThat(units(stack)).containsExactly("database", "app");
    assertThat(stack.executions().get(0).reasons())
        .containsExactly(new Reason(Reason.Kind.PLAN_HAS_CHANGES, null, null));
    assertThat(stack.executions().get(1).reasons()).containsExactly(Reason.dependsOn("database"));
    assertThat(stack.executions()).extracting(PlannedExecution::layer).containsExactly(0, 1);
    assertThat(plannedUnits())
        .containsExactlyInAnyOrder("network", "database", "monitoring")
        .doesNotContain("app");
    assertThat(plannedUnits().indexOf("network")).isLessThan(plannedUnits().indexOf("database"));
  }

  @Test
  void aUnitWithBrokenTerraformFailsTheScanNamingTheUnitWithTerraformsError() {
    repo.write("monitoring/main.tf", mainTf("v1") + "resource \"terraform_data\" \"broken\" {\n");
    repo.commit("broken monitoring");

    assertThatThrownBy(() -> planScan("HEAD~1", "HEAD"))
        .isInstanceOf(LivegateException.class)
        .hasMessageContaining("monitoring: exited with 1")
        .hasMessageContaining("Unclosed configuration block");
  }

  @Test
  void aScanWhoseHeadIsNotCheckedOutFailsClearly() {
    repo.write("database/main.tf", mainTf("v2"));
    repo.commit("database v2");

    assertThatThrownBy(() -> planScan("HEAD~1", "HEAD~1"))
        .isInstanceOf(LivegateException.class)
        .hasMessageContaining("must have HEAD~1")
        .hasMessageContaining("checked out");
    assertThat(planScanCalls).isEmpty();
  }

  @Test
  void theCliRunsThePlanScanWithTerraform() throws Exception {
    repo.write("network/main.tf", mainTf("v2"));
    repo.commit("network v2");

    CliRun run =
        CliRun.of(
            "scan",
            "--repo",
            dir.toString(),
            "--base",
            "HEAD~1",
            "--scan",
            "plan",
            "--runner",
            "terraform",
            "--format",
            "json",
            "--parallelism",
            "2");

    assertThat(run.exitCode()).as(run.toString()).isZero();
    assertThat(run.err()).contains("livegate: planned network: changes");
    JsonNode stack = new ObjectMapper().readTree(run.out());
    assertThat(stack.get("scan").asText()).isEqualTo("plan");
    JsonNode executions = stack.get("executions");
    assertThat(executions).hasSize(3);
    assertThat(executions.get(0).get("unit").asText()).isEqualTo("network");
    assertThat(executions.get(0).get("reasons").get(0).get("kind").asText())
        .isEqualTo("plan-has-changes");
    assertThat(executions.get(1).get("unit").asText()).isEqualTo("database");
    assertThat(executions.get(1).get("reasons").get(0).get("kind").asText())
        .isEqualTo("depends-on");
    assertThat(executions.get(2).get("unit").asText()).isEqualTo("app");
  }

  @Test
  void theCliReportsAFailedPlanWithExitOne() {
    repo.write("app/main.tf", mainTf("v1").replace("input", "no_such_argument"));
    repo.commit("app with an unsupported argument");

    CliRun run =
        CliRun.of(
            "scan",
            "--repo",
            dir.toString(),
            "--base",
            "HEAD~1",
            "--scan",
            "plan",
            "--runner",
            "terraform",
            "-q");

    assertThat(run.exitCode()).as(run.toString()).isEqualTo(Livegate.EXIT_FAILURE);
    assertThat(run.out()).isEmpty();
    assertThat(run.err())
        .startsWith("livegate: ")
        .contains("could not be planned")
        .contains("\n  app: exited with 1")
        .contains("Unsupported argument");
  }

  @Test
  void terraformFilesLeftByAPlanScanStayOutOfGitAndLaterScansAgree() throws Exception {
    repo.write("database/main.tf", mainTf("v2"));
    repo.commit("database v2");

    DeployStack first = planScan("HEAD~1", "HEAD");
    DeployStack second = planScan("HEAD~1", "HEAD");
    DeployStack graph =
        new GraphScan(ProgressListener.silent())
            .run(
                ScanCommand.builder(dir, Accounts.wholeRepository())
                    .base("HEAD~1")
                    .head("HEAD")
                    .parallelism(2)
                    .build());

    assertThat(Files.isDirectory(dir.resolve("database/.terraform"))).isTrue();
    assertThat(Files.exists(dir.resolve("database/terraform.tfstate"))).isTrue();
    try (Git git = Git.open(dir.toFile())) {
      Status status = git.status().call();
      assertThat(status.isClean()).as("untracked: %s", status.getUntracked()).isTrue();
    }
    assertThat(units(second)).isEqualTo(units(first)).containsExactly("database", "app");
    assertThat(units(graph)).containsExactly("database", "app");
  }
}
