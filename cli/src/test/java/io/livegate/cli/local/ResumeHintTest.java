package io.livegate.cli.local;

import static org.assertj.core.api.Assertions.assertThat;

import io.livegate.cli.CliRun;
import io.livegate.cli.Livegate;
import io.livegate.core.deploy.DeploymentStatus;
import io.livegate.scan.testing.TestRepo;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The hint a stopped run ends with is a command that works as printed: it names the state
 * directory, the runner and --auto-approve, so following it resumes the deployment rather than
 * finding "nothing to resume" in ~/.livegate.
 */
@Timeout(value = 4, unit = TimeUnit.MINUTES)
@Tag("terraform")
class ResumeHintTest {
  @TempDir Path dir;
  private final List<Process> started = new ArrayList<>();

  @AfterEach
  void stopLeftovers() {
    started.forEach(Process::destroyForcibly);
  }

  @Test
  void theCtrlCHintNamesTheStateDirectoryAndRunnerAndFollowingItFinishesTheDeployment()
      throws Exception {
    Path state = dir.resolve("state");
    TestRepo repo = LiveRepos.devAccountChange(dir.resolve("live"));
    Path deployLog = dir.resolve("deploy.log");
    Process deploy =
        livegate(
            deployLog,
            CliRun.deployArguments(
                repo.root(), state, "--auto-approve", "--port", "0", "--parallelism", "1"));
    while (!read(deployLog).contains("] released")) {
      assertThat(deploy.isAlive()).as(read(deployLog)).isTrue();
      Thread.sleep(20);
    }
    new ProcessBuilder("kill", "-INT", Long.toString(deploy.pid())).start().waitFor();
    deploy.waitFor();

    String log = read(deployLog);
    assertThat(deploy.exitValue()).as(log).isEqualTo(Livegate.EXIT_FAILURE);
    String resume =
        "livegate resume --state-dir " + state.toRealPath() + " --runner terraform --auto-approve";
    assertThat(log)
        .endsWith(
            "livegate: stopped; what finished is recorded.\n"
                + "To finish deployment 1, run:\n"
                + "  "
                + resume
                + "\n");

    // The hint, as printed, with a free port instead of the default one.
    List<String> arguments = new ArrayList<>(Arrays.asList(resume.split(" ")));
    arguments.remove(0);
    arguments.addAll(List.of("--port", "0"));
    Path resumeLog = dir.resolve("resume.log");
    Process resumed = livegate(resumeLog, arguments.toArray(String[]::new));
    resumed.waitFor();

    assertThat(resumed.exitValue()).as(read(resumeLog)).isZero();
    assertThat(read(resumeLog))
        .startsWith("resuming deployment 1 of ")
        .contains("deployment 1: succeeded");
    assertThat(Recorded.in(state).deployment().status()).isEqualTo(DeploymentStatus.SUCCEEDED);
  }

  private Process livegate(Path log, String... args) throws Exception {
    Process process = ChildJvm.livegate(log, List.of(args));
    started.add(process);
    return process;
  }

  private static String read(Path log) throws Exception {
    return Files.exists(log) ? Files.readString(log) : "";
  }
}
