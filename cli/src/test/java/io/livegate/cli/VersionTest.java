package io.livegate.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** {@code livegate --version} says which version and which commit it was built from. */
class VersionTest {
  @Test
  void versionNamesTheProjectVersionAndTheCommitItWasBuiltFrom() throws Exception {
    Process git = new ProcessBuilder("git", "rev-parse", "--short=12", "HEAD").start();
    String commit = new String(git.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
    assertThat(git.waitFor()).as("this test runs in the repository's git checkout").isZero();

    CliRun version = CliRun.of("--version");

    assertThat(version.exitCode()).isZero();
    assertThat(version.out().strip())
        .matches("livegate \\d+\\.\\d+\\.\\d+(-SNAPSHOT)? \\(commit [0-9a-f]{12}\\)")
        .endsWith("(commit " + commit + ")");
  }
}
