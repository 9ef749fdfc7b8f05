package io.livegate.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.livegate.scan.testing.TestRepo;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code livegate drift} reads configs with the rules of the terragrunt that plans the units, as
 * {@code livegate scan} and {@code livegate deploy} do: the release {@code terragrunt --version}
 * names on PATH.
 */
class DriftTerragruntRulesTest {
  @TempDir Path dir;

  /**
   * An exclude block is read from terragrunt 0.69.0 on: under the default release drift plans the
   * unit, under the 0.68.0 on PATH it stops at the block, as that release's full parse would.
   */
  @Test
  void driftAppliesTheRulesOfTheTerragruntOnPath() throws IOException {
    Path live = dir.resolve("live");
    try (TestRepo repo = TestRepo.create(live)) {
      repo.write(
          "app/a/terragrunt.hcl", "exclude {\n  if      = false\n  actions = [\"all\"]\n}\n");
      repo.commit("one unit");
    }
    Path accounts =
        Files.writeString(dir.resolve("accounts.hcl"), "account \"apps\" {\n  path = \"app\"\n}\n");
    Path bin = Files.createDirectories(dir.resolve("bin"));
    Path terragrunt =
        Files.writeString(
            bin.resolve("terragrunt"), "#!/bin/sh\necho 'terragrunt version v0.68.0'\n");
    terragrunt.toFile().setExecutable(true);

    CliRun drift =
        CliRun.inEnvironment(
            Map.of("PATH", bin.toString()),
            "drift",
            "--repo",
            live.toString(),
            "--accounts",
            accounts.toString(),
            "--state-dir",
            dir.resolve("state").toString());

    assertThat(drift.exitCode()).as(drift.toString()).isNotZero();
    assertThat(drift.err())
        .contains("scanning with terragrunt 0.68.0's rules (" + terragrunt)
        .contains(
            "app/a/terragrunt.hcl:1: the exclude block needs terragrunt 0.69.0 or later, and this"
                + " scan reads configs for terragrunt 0.68.0");
  }
}
