package io.livegate.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.livegate.core.runner.Command;
import io.livegate.core.runner.CommandResult;
import io.livegate.core.scan.testing.TestRepo;
import io.livegate.process.ProcessCommandRunner;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code livegate drift} against real terraform: a repository deployed with livegate, then one
 * unit's resource changed out of band with terraform; drift reports exactly that unit with its
 * change, and a unit that cannot be planned as an error.
 */
@Timeout(value = 4, unit = TimeUnit.MINUTES)
@Tag("terraform")
class DriftCliTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir static Path dir;
  private static TestRepo repo;
  private static CliRun deployed;
  private static CliRun drift;
  private static CliRun withBrokenUnit;

  @BeforeAll
  static void deployThenChangeOneResourceOutOfBand() {
    repo = TestRepo.create(dir.resolve("live"));
    repo.write("README.md", "apps\n");
    repo.write(".gitignore", ".terraform/\n.terraform.lock.hcl\nterraform.tfstate*\n");
    repo.commit("empty");
    for (String unit : List.of("a", "b")) {
      repo.write("app/" + unit + "/terragrunt.hcl", "inputs = {}\n")
          .write(
              "app/" + unit + "/main.tf",
              "variable \"size\" {\n  default = \"small\"\n}\n\n"
                  + "resource \"terraform_data\" \"this\" {\n  input = var.size\n}\n");
    }
    repo.commit("a and b");
    deployed =
        CliRun.withPath(
            "deploy",
            "--repo",
            repo.root().toString(),
            "--base",
            "HEAD~1",
            "--runner",
            "terraform",
            "--auto-approve",
            "--port",
            "0",
            "--state-dir",
            dir.resolve("state").toString());
    terraform(repo.root().resolve("app/a"), "apply", "-auto-approve", "-var", "size=large");
    drift = drift("json");
    repo.write("app/broken/terragrunt.hcl", "inputs = {}\n")
        .write(
            "app/broken/main.tf",
            "resource \"terraform_data\" \"this\" {\n  input = var.undeclared\n}\n");
    repo.commit("a unit whose plan fails");
    withBrokenUnit = drift("text");
  }

  private static CliRun drift(String format) {
    return CliRun.withPath(
        "drift",
        "--repo",
        repo.root().toString(),
        "--runner",
        "terraform",
        "--parallelism",
        "2",
        "--format",
        format);
  }

  @Test
  void exactlyTheUnitChangedOutOfBandIsReportedWithItsChangeAndTheExitCodeSaysDrift()
      throws Exception {
    assertThat(deployed.exitCode()).as(deployed.toString()).isZero();
    assertThat(drift.exitCode()).as(drift.toString()).isEqualTo(2);
    JsonNode report = JSON.readTree(drift.out());
    assertThat(report.get("planned").asInt()).isEqualTo(2);
    assertThat(report.get("inSync").asBoolean()).isFalse();
    assertThat(report.get("errors")).isEmpty();
    assertThat(report.get("drifted")).hasSize(1);
    JsonNode drifted = report.get("drifted").get(0);
    assertThat(drifted.get("unit").asText()).isEqualTo("app/a");
    assertThat(drifted.get("account").asText()).isEqualTo("default");
    assertThat(drifted.get("changes"))
        .extracting(JsonNode::asText)
        .containsExactly("terraform_data.this: update");
    assertThat(drift.err())
        .contains("planned app/b: no drift", "planned app/a: drifted (1 changes)");
  }

  @Test
  void aUnitThatCannotBePlannedIsAnErrorNeverNoDrift() {
    assertThat(withBrokenUnit.exitCode()).as(withBrokenUnit.toString()).isEqualTo(1);
    assertThat(withBrokenUnit.out())
        .contains("3 units planned, 1 drifted, 1 could not be planned")
        .contains("drifted app/a  [default]\n    terraform_data.this: update")
        .contains("ERROR app/broken  [default]")
        .contains("undeclared")
        .doesNotContain("no drift");
  }

  private static void terraform(Path unit, String... arguments) {
    List<String> argv = new ArrayList<>(List.of("terraform", "-chdir=" + unit));
    argv.addAll(List.of(arguments));
    argv.addAll(List.of("-input=false", "-no-color"));
    CommandResult result =
        new ProcessCommandRunner().run(new Command(argv, unit, Map.of(), Duration.ofMinutes(2)));
    if (result.exitCode() != 0) {
      throw new IllegalStateException(String.join(" ", argv) + ":\n" + result.output());
    }
  }
}
