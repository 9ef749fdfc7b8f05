package io.livegate.cli.local;

import static org.assertj.core.api.Assertions.assertThat;

import io.livegate.cli.Livegate;
import io.livegate.process.PlanTimeSpy;
import io.livegate.scan.testing.TestRepo;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code livegate scan --scan plan} stopped by a signal while a plan runs: the plan (terraform in a
 * session of its own, with its provider) is interrupted and has ended before livegate exits,
 * instead of running on in a copy of the repository that livegate's exit deletes.
 */
@Tag("terraform")
class PlanScanSignalTest {
  @TempDir Path dir;

  @ParameterizedTest(name = "SIG{0}")
  @ValueSource(strings = {"TERM", "HUP"})
  void aSignalDuringAPlanScanEndsTheRunningPlanBeforeLivegateExits(String signal) throws Exception {
    TestRepo repo = TestRepo.create(dir.resolve("live"));
    repo.write("README.md", "apps\n");
    repo.commit("empty");
    repo.write("app/terragrunt.hcl", "inputs = {}\n")
        .write("app/main.tf", "resource \"terraform_data\" \"app\" {}\n");
    // A provider that does not start until something stops it: the plan waits on it.
    PlanTimeSpy.installInUnit(repo.root().resolve("app"), Map.of("wait", "sleep 600"));
    repo.commit("app, with a provider that takes its time");
    Path log = dir.resolve("scan.log");
    Process scan =
        new ProcessBuilder(
                ChildJvm.command(
                    Livegate.class,
                    List.of(
                        "scan",
                        "--repo",
                        repo.root().toString(),
                        "--base",
                        "HEAD~1",
                        "--scan",
                        "plan",
                        "--runner",
                        "terraform")))
            .redirectErrorStream(true)
            .redirectOutput(log.toFile())
            .start();
    List<ProcessHandle> plan = List.of();
    try {
      ChildJvm.await(() -> providerWaits(scan), "the plan's provider", scan, log);
      plan = scan.descendants().toList();
      new ProcessBuilder("kill", "-" + signal, Long.toString(scan.pid())).start().waitFor();
      ChildJvm.awaitExit(scan, log);

      assertThat(plan.stream().filter(PlanScanSignalTest::runs).map(PlanScanSignalTest::described))
          .as("what the plan ran, alive when livegate had exited:\n%s", ChildJvm.read(log))
          .isEmpty();
      assertThat(ChildJvm.read(log)).contains("stopping: interrupting the running plans");
      assertThat(scan.exitValue()).as(ChildJvm.read(log)).isNotZero();
    } finally {
      plan.forEach(ProcessHandle::destroyForcibly);
      scan.destroyForcibly();
    }
  }

  /**
   * Whether {@code process} still runs: alive, and not a zombie, which has ended and waits only to
   * be reaped (this machine's PID 1 reaps no orphan, so a process whose parent exited stays one).
   */
  private static boolean runs(ProcessHandle process) {
    try {
      String stat = Files.readString(Path.of("/proc/" + process.pid() + "/stat"));
      return process.isAlive() && stat.charAt(stat.lastIndexOf(')') + 2) != 'Z';
    } catch (IOException e) {
      return false;
    }
  }

  private static String described(ProcessHandle process) {
    return process.pid() + " " + process.info().commandLine().orElse("?");
  }

  private static boolean providerWaits(Process scan) {
    return scan.descendants()
        .anyMatch(process -> process.info().command().orElse("").endsWith("/sleep"));
  }
}
