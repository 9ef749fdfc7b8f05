package io.livegate.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Path;
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
@Timeout(value = 20, unit = TimeUnit.MINUTES)
@Tag("terraform")
class DriftCliTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir static Path dir;
  private static DriftedRepo drifted;
  private static CliRun drift;
  private static CliRun withBrokenUnit;

  @BeforeAll
  static void deployThenChangeOneResourceOutOfBand() {
    drifted = DriftedRepo.deployThenChangeAOutOfBand(dir);
    drift = drifted.drift("--format", "json");
    drifted
        .repo()
        .write("app/broken/terragrunt.hcl", "inputs = {}\n")
        .write(
            "app/broken/main.tf",
            "resource \"terraform_data\" \"this\" {\n  input = var.undeclared\n}\n");
    drifted.repo().commit("a unit whose plan fails");
    withBrokenUnit = drifted.drift("--format", "text");
  }

  @Test
  void exactlyTheUnitChangedOutOfBandIsReportedWithItsChangeAndTheExitCodeSaysDrift()
      throws Exception {
    assertThat(drifted.deployed().exitCode()).as(drifted.deployed().toString()).isZero();
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
}
