package io.livegate.tasks;

import static org.assertj.core.api.Assertions.assertThat;

import io.livegate.scan.terragrunt.TerragruntVersion;
import io.livegate.statemachine.RuntimeContract;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * The scans in the tasks apply the rules of the terragrunt release the image installs: the image
 * says which in its environment, and without it the scan's default is the image's default.
 */
class RunnerTerragruntVersionTest {
  @Test
  void theScansDefaultReleaseIsTheReleaseTheRunnerImageInstallsByDefault() {
    assertThat(TerragruntVersion.parse(RuntimeContract.RunnerVersions.TERRAGRUNT))
        .isEqualTo(TerragruntVersion.DEFAULT);
    assertThat(TerragruntVersion.DEFAULT_TEXT).isEqualTo(RuntimeContract.RunnerVersions.TERRAGRUNT);
  }

  @Test
  void theImageTellsTheTasksWhichTerragruntItInstalled() throws IOException {
    assertThat(Files.readString(Path.of("Dockerfile")))
        .contains(
            "ENV " + RuntimeContract.RunnerVersions.TERRAGRUNT_ENV + "=${TERRAGRUNT_VERSION}");
  }
}
