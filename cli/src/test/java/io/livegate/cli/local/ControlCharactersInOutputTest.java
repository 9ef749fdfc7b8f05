package io.livegate.cli.local;

import static org.assertj.core.api.Assertions.assertThat;

import io.livegate.cli.CliRun;
import io.livegate.scan.testing.TestRepo;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A unit whose directory name holds a newline, ESC sequences and a C1 control character, as a pull
 * request can name one: printed raw, the newline would start a line that looks like livegate's own,
 * and the escape sequences would clear the terminal and retitle its window. Every line livegate
 * prints (the scan, the deployment's log, the execution log kept in the state directory) shows them
 * escaped.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
@Tag("terraform")
class ControlCharactersInOutputTest {
  private static final String FORGED = "livegate: FORGED deployment 1: succeeded";
  private static final String UNIT =
      "dev/app\n" + FORGED + "\u001b[2J\u001b]0;owned\u0007\r\u009b31m";
  private static final String ESCAPED =
      "dev/app\\n" + FORGED + "\\e[2J\\e]0;owned\\x07\\r\\u009B31m";

  @TempDir Path dir;

  @Test
  void aUnitPathWithANewlineAndEscapesForgesNoLineAndNoTerminalEscape() throws Exception {
    TestRepo repo =
        oneUnit(
            UNIT,
            "resource \"terraform_data\" \"app\" {}\n",
            "a unit with control characters in its path");
    Path state = dir.resolve("state");

    CliRun scan = CliRun.withPath("scan", "--repo", repo.root().toString(), "--base", "HEAD~1");
    CliRun deploy = CliRun.autoApprovedDeploy(repo.root(), state);

    String printed = scan.out() + scan.err() + deploy.out() + deploy.err();
    System.out.println(printed);
    assertThat(scan.exitCode()).as(scan.toString()).isZero();
    assertThat(deploy.exitCode()).as(deploy.toString()).isZero();
    assertThat(scan.out()).contains("  " + ESCAPED + "  [");
    assertThat(deploy.out()).contains("[" + ESCAPED + "] ");
    assertNoForgery(printed);
    try (Stream<Path> logs = Files.list(state.resolve("logs"))) {
      for (Path log : logs.toList()) {
        assertNoForgery(Files.readString(log));
      }
    }
  }

  /**
   * A unit's plan fails with an error message of its own making (a variable's validation), which
   * holds a newline and then a line that reads like livegate's: terraform prints it at the margin,
   * and the failure's message carries terraform's error into the deployment's log. Every line of a
   * message after its first is indented there, so the forged line starts no line of the log.
   */
  @Test
  void aForgedLineInTerraformsErrorStaysIndentedUnderItsUnitsFailure() throws Exception {
    TestRepo repo =
        oneUnit(
            "dev/app",
            "variable \"v\" {\n  default = \"x\"\n  validation {\n    condition     = var.v =="
                + " \"y\"\n    error_message = \"bad\\n"
                + FORGED
                + "\"\n  }\n}\n",
            "a unit whose plan fails with a message of its own");

    CliRun deploy = CliRun.autoApprovedDeploy(repo.root(), dir.resolve("state"));

    String printed = deploy.out() + deploy.err();
    System.out.println(printed);
    assertThat(deploy.exitCode()).as(deploy.toString()).isNotZero();
    assertThat(printed).contains("[dev/app] failed: plan exited with 1:\n    ");
    assertThat(printed.lines()).contains("    " + FORGED);
    assertNoForgery(printed);
  }

  /**
   * A unit's apply runs a provisioner that prints a line imitating the header livegate writes above
   * each command in an execution log, and fails: terraform prints the provisioner's output under
   * its error at the margin. In the kept log, and in {@code status --log}, every line of
   * terraform's is indented under its command's header, so the forged one passes for no header.
   */
  @Test
  void aProvisionersForgedHeaderStaysIndentedInTheKeptExecutionLog() throws Exception {
    String forged = "--- 2026-11-28T00:00:00Z  terraform apply FORGED  (exit 0)";
    TestRepo repo =
        oneUnit(
            "dev/app",
            "resource \"terraform_data\" \"app\" {\n  provisioner \"local-exec\" {\n"
                + "    command = \"printf 'applied\\\\n"
                + forged
                + "\\\\nall fine\\\\n'; exit 1\"\n  }\n}\n",
            "a unit whose provisioner prints a header of its own");
    Path state = dir.resolve("state");

    CliRun deploy = CliRun.autoApprovedDeploy(repo.root(), state);
    CliRun log = CliRun.of("status", "1", "--log", "dev/app", "--state-dir", state.toString());

    System.out.println(log.out() + log.err());
    assertThat(deploy.exitCode()).as(deploy.toString()).isNotZero();
    assertThat(log.exitCode()).as(log.toString()).isZero();
    List<String> lines = log.out().lines().toList();
    assertThat(lines).as("terraform printed the forged line").anyMatch(l -> l.contains(forged));
    assertThat(lines)
        .as("livegate's headers are livegate's: the forged one is indented under one")
        .filteredOn(line -> line.startsWith("--- "))
        .isNotEmpty()
        .noneMatch(line -> line.contains("FORGED"));
    assertThat(lines)
        .as("every line under a header is terraform's, indented")
        .filteredOn(line -> !line.isEmpty() && !line.startsWith("--- "))
        .filteredOn(line -> !line.startsWith("log of dev/app"))
        .allMatch(line -> line.startsWith("    ") || line.isBlank());
  }

  /** A repository with an empty commit, then {@code unit} with {@code mainTf} committed. */
  private TestRepo oneUnit(String unit, String mainTf, String message) {
    TestRepo repo = TestRepo.create(dir.resolve("live"));
    repo.write("README.md", "live\n");
    repo.write(".gitignore", ".terraform/\n.terraform.lock.hcl\nterraform.tfstate*\n");
    repo.commit("empty");
    repo.write(unit + "/terragrunt.hcl", "inputs = {}\n").write(unit + "/main.tf", mainTf);
    repo.commit(message);
    return repo;
  }

  private static void assertNoForgery(String printed) {
    assertThat(printed)
        .as("no raw control character but the newlines between lines")
        .doesNotContain("\u001b", "\u0007", "\r", "\u009b");
    List<String> lines = printed.lines().toList();
    assertThat(lines).noneMatch(line -> line.startsWith(FORGED));
  }
}
