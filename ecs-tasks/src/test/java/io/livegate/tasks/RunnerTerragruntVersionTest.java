package io.livegate.tasks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.livegate.scan.terragrunt.InvalidTerragruntConfig;
import io.livegate.scan.terragrunt.TerragruntVersion;
import io.livegate.statemachine.RuntimeContract;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.eclipse.jgit.api.Git;
import org.eclipse.jgit.api.errors.GitAPIException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The scans in the tasks apply the rules of the terragrunt release the image installs: the image
 * says which in its environment, and without it the scan's default is the image's default.
 */
class RunnerTerragruntVersionTest {
  @TempDir Path dir;

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

  /**
   * An exclude block is read from terragrunt 0.69.0 on: the default release plans the unit, the
   * image's 0.68.0 stops at the block as its full parse would, before anything is planned.
   */
  @Test
  void theDriftTaskReadsConfigsWithTheRulesOfTheTerragruntTheImageInstalled()
      throws IOException, GitAPIException {
    Path live = dir.resolve("live");
    Files.createDirectories(live.resolve("app/a"));
    Files.writeString(
        live.resolve("app/a/terragrunt.hcl"),
        "exclude {\n  if      = false\n  actions = [\"all\"]\n}\n");
    try (Git git = Git.init().setDirectory(live.toFile()).setInitialBranch("main").call()) {
      git.add().addFilepattern(".").call();
      git.commit().setMessage("one unit").setAuthor("t", "t@example.com").call();
    }
    Map<String, String> environment = new HashMap<>();
    environment.put("AWS_REGION", "us-east-1");
    environment.put("AWS_ACCESS_KEY_ID", "testing");
    environment.put("AWS_SECRET_ACCESS_KEY", "testing");
    environment.put(RuntimeContract.Tasks.REPO_URL, live.toString());
    environment.put(RuntimeContract.Tasks.ACCOUNTS, "account \"apps\" {\n  path = \"app\"\n}\n");
    environment.put(RuntimeContract.Tasks.WORKSPACE, dir.resolve("workspace").toString());
    environment.put(RuntimeContract.RunnerVersions.TERRAGRUNT_ENV, "0.68.0");
    DriftJob drift =
        TaskWiring.fromEnvironment(environment, new PrintWriter(new StringWriter())).drift();

    assertThatThrownBy(() -> drift.run("acme/live", "main"))
        .isInstanceOf(InvalidTerragruntConfig.class)
        .hasMessageContaining(
            "app/a/terragrunt.hcl:1: the exclude block needs terragrunt 0.69.0 or later, and this"
                + " scan reads configs for terragrunt 0.68.0");
  }
}
