package io.livegate.process;

import static org.assertj.core.api.Assertions.assertThat;

import io.livegate.core.runner.Command;
import io.livegate.core.runner.CommandResult;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ProcessCommandRunnerTest {
  private static final Duration TIMEOUT = Duration.ofSeconds(30);

  @TempDir Path dir;

  private final ProcessCommandRunner runner = new ProcessCommandRunner();

  private CommandResult run(String... argv) {
    return runner.run(new Command(List.of(argv), dir, Map.of(), TIMEOUT));
  }

  /** A runner that counts {@code trapped} down when its command prints "trapped". */
  private static ProcessCommandRunner countingDownOnTrapped(CountDownLatch trapped) {
    return new ProcessCommandRunner(
        line -> {
          if (line.equals("trapped")) {
            trapped.countDown();
          }
        });
  }

  @Test
  void shellSyntaxInAnArgumentIsPassedLiterally() {
    Path marker = dir.resolve("pwned");
    String substitution = "$(touch " + marker + ")";
    String backticks = "`touch " + marker + "`";

    CommandResult result =
        run(
            "/usr/bin/printf",
            "[%s]\\n",
            substitution,
            backticks,
            "; rm -rf /",
            "&& echo hi",
            "| cat",
            "$HOME",
            "*",
            "a b  c",
            "it's \"quoted\"");

    assertThat(result.exitCode()).isZero();
    assertThat(result.timedOut()).isFalse();
    assertThat(result.output())
        .isEqualTo(
            "["
                + substitution
                + "]\n["
                + backticks
                + "]\n[; rm -rf /]\n[&& echo hi]\n[| cat]\n[$HOME]\n[*]\n[a b  c]\n[it's \"quoted\"]\n");
    assertThat(marker).doesNotExist();
  }

  @Test
  void anArgumentStartingWithADashIsStillOneArgument() {
    CommandResult result = run("/bin/echo", "--", "-rf /", "-n");

    assertThat(result.output()).isEqualTo("-- -rf / -n\n");
  }

  @Test
  void theExitCodeIsReturned() {
    assertThat(run("/bin/sh", "-c", "exit 0").exitCode()).isZero();
    assertThat(run("/bin/sh", "-c", "exit 2").exitCode()).isEqualTo(2);
    assertThat(run("/bin/sh", "-c", "exit 137").exitCode()).isEqualTo(137);
  }

  @Test
  void stderrIsMergedIntoTheOutput() {
    CommandResult result = run("/bin/sh", "-c", "echo out; echo err >&2; exit 1");

    assertThat(result.exitCode()).isEqualTo(1);
    assertThat(result.output()).contains("out\n").contains("err\n");
  }

  @Test
  void stdoutAloneStaysParseableWhenTheProgramWarnsOnStderr() {
    CommandResult result =
        run("/bin/sh", "-c", "echo 'Warning: no CLI config' >&2; echo '{\"a\":1}'; echo late >&2");

    assertThat(result.stdout()).isEqualTo("{\"a\":1}\n");
    assertThat(result.output().lines())
        .containsExactlyInAnyOrder("Warning: no CLI config", "{\"a\":1}", "late");
  }

  @Test
  void theCommandRunsInItsWorkingDirectoryWithTheAddedEnvironment() throws IOException {
    Path unit = Files.createDirectories(dir.resolve("unit with space"));

    CommandResult result =
        runner.run(
            new Command(
                List.of("/bin/sh", "-c", "pwd; echo \"$TF_VAR_test_value\""),
                unit,
                Map.of("TF_VAR_test_value", "$(not expanded)"),
                TIMEOUT));

    assertThat(result.output()).isEqualTo(unit.toRealPath() + "\n$(not expanded)\n");
  }

  @Test
  void theCommandSeesOnlyTheAllowListedPartOfItsEnvironment() {
    CommandResult result =
        runner.run(
            new Command(
                List.of("/usr/bin/env"),
                dir,
                Map.of(
                    "LIVEGATE_WEBHOOK_SECRET", "webhook-secret",
                    "LIVEGATE_TASK_TOKEN", "task-token",
                    "PGPASSWORD", "metadb-password",
                    "TF_IN_AUTOMATION", "1",
                    "AWS_SESSION_TOKEN", "plan-role-session"),
                TIMEOUT));

    assertThat(result.stdout().lines())
        .contains("TF_IN_AUTOMATION=1", "AWS_SESSION_TOKEN=plan-role-session")
        .noneMatch(line -> line.startsWith("LIVEGATE_") || line.startsWith("PGPASSWORD="));
  }

  @Test
  void eachOutputLineReachesTheSinkAsItArrives() {
    List<String> lines = new CopyOnWriteArrayList<>();
    ProcessCommandRunner streaming = new ProcessCommandRunner(lines::add);

    streaming.run(
        new Command(List.of("/usr/bin/printf", "one\\ntwo\\nthree"), dir, Map.of(), TIMEOUT));

    assertThat(lines).containsExactly("one", "two", "three");
  }

  @Test
  void aTimeoutKillsTheProcessAndItsChildren() throws Exception {
    long start = System.nanoTime();

    CommandResult result =
        runner.run(
            new Command(
                List.of("/bin/sh", "-c", "sleep 60 & echo $!; wait"),
                dir,
                Map.of(),
                Duration.ofMillis(500)));

    assertThat(result.timedOut()).isTrue();
    assertThat(result.exitCode()).isEqualTo(-1);
    assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(20));
    long sleeper = Long.parseLong(result.output().strip());
    assertThat(waitUntilGone(sleeper)).as("the child sleep %d is killed", sleeper).isTrue();
  }

  @Test
  void aMissingProgramExitsMinusOneWithAClearMessage() {
    CommandResult result = run("livegate-no-such-program", "plan");

    assertThat(result.exitCode()).isEqualTo(-1);
    assertThat(result.timedOut()).isFalse();
    assertThat(result.output()).startsWith("cannot start livegate-no-such-program: ");
    assertThat(result.output()).contains("No such file or directory");
  }

  @Test
  void aCommandOutlivesTheJvmThatStartedItAndStillWritesItsOutput() throws Exception {
    // As terraform does after an apply: it prints after the resource change, then saves state.
    Path pidFile = dir.resolve("apply.pid");
    Path saved = dir.resolve("state-saved");
    Process livegate =
        new ProcessBuilder(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp",
                System.getProperty("java.class.path"),
                Starter.class.getName(),
                dir.toString(),
                pidFile.toString(),
                "/bin/sh",
                "-c",
                "sleep 1; echo applied; echo saved > state-saved")
            .start();
    try {
      long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
      while (!Files.exists(pidFile) && System.nanoTime() < deadline) {
        Thread.sleep(20);
      }
      assertThat(pidFile).as("the runner wrote the PID file").exists();
      long pid = Long.parseLong(Files.readString(pidFile).strip());

      livegate.destroyForcibly().waitFor();

      assertThat(waitUntilGone(pid)).as("the orphaned command ends").isTrue();
      assertThat(saved).as("the command finished after livegate died").hasContent("saved");
    } finally {
      livegate.destroyForcibly();
    }
  }

  @Test
  void thePidFileNamesTheRunningProcessAndGoesWhenItEnds() throws Exception {
    Path pidFile = dir.resolve("run.pid");
    // The command sleeps until the test interrupts it, so that a loaded machine cannot end it
    // before the test has looked at it.
    Thread probe =
        new Thread(
            () ->
                runner.run(
                    new Command(
                        List.of("/bin/sleep", "600"),
                        dir,
                        Map.of(),
                        TIMEOUT,
                        java.util.Optional.of(pidFile),
                        java.util.Optional.empty())));
    probe.start();
    while (!Files.exists(pidFile)) {
      assertThat(probe.isAlive()).as("the run writes its PID file before it ends").isTrue();
      Thread.sleep(10);
    }
    long pid = Long.parseLong(Files.readString(pidFile).strip());
    // setsid runs first and then becomes the command in the same process.
    while (!ProcessHandle.of(pid).flatMap(p -> p.info().command()).orElse("").endsWith("sleep")) {
      assertThat(ProcessHandle.of(pid).map(ProcessHandle::isAlive)).hasValue(true);
      Thread.sleep(10);
    }
    runner.interruptAll();
    probe.join();
    assertThat(pidFile).doesNotExist();
  }

  @Test
  void aPidFileThatCannotBeWrittenLeavesTheProcessWatchedToItsEnd() throws Exception {
    // A non-empty directory where the PID file goes: the move into place fails, as on a full disk.
    Path pidFile = Files.createDirectories(dir.resolve("apply.pid"));
    Files.writeString(pidFile.resolve("in-the-way"), "");
    Path marker = dir.resolve("marker");
    List<String> lines = new CopyOnWriteArrayList<>();

    CommandResult result =
        new ProcessCommandRunner(lines::add)
            .run(
                new Command(
                    List.of("/bin/sh", "-c", "sleep 1; printf done > " + marker),
                    dir,
                    Map.of(),
                    TIMEOUT,
                    java.util.Optional.of(pidFile),
                    java.util.Optional.empty()));

    assertThat(marker).as("the run returned only once the process ended").hasContent("done");
    assertThat(result.exitCode()).isZero();
    assertThat(lines).anyMatch(line -> line.startsWith("warning: cannot write " + pidFile));
  }

  @Test
  void stoppingAllWaitsForTheRunningCommandAndStartsNoneAfter() throws Exception {
    Path marker = dir.resolve("interrupted");
    CountDownLatch trapped = new CountDownLatch(1);
    ProcessCommandRunner lines = countingDownOnTrapped(trapped);
    Thread running =
        new Thread(
            () ->
                lines.run(
                    new Command(
                        List.of(
                            "/bin/sh",
                            "-c",
                            "trap 'sleep 1; printf done > "
                                + marker
                                + "; exit 130' INT;"
                                + " echo trapped; while true; do sleep 1; done"),
                        dir,
                        Map.of(),
                        TIMEOUT)));
    running.start();
    trapped.await();

    assertThat(lines.stopAll()).isEqualTo(1);

    assertThat(marker).as("stopAll returned once the command had ended").hasContent("done");
    CommandResult after = lines.run(new Command(List.of("/bin/true"), dir, Map.of(), TIMEOUT));
    assertThat(after.exitCode()).isEqualTo(-1);
    assertThat(after.output()).contains("not started: livegate is stopping");
    running.join();
  }

  @Test
  void interruptingAllSendsEachRunningCommandOneSigint() throws Exception {
    CommandResult[] result = new CommandResult[1];
    // The shell says when its trap is set: a SIGINT before that would end it with the default.
    CountDownLatch trapped = new CountDownLatch(1);
    ProcessCommandRunner lines = countingDownOnTrapped(trapped);
    Thread running =
        new Thread(
            () ->
                result[0] =
                    lines.run(
                        new Command(
                            List.of(
                                "/bin/sh",
                                "-c",
                                "trap 'echo interrupted; exit 3' INT; echo trapped; sleep 30 & wait"),
                            dir,
                            Map.of(),
                            TIMEOUT)));
    running.start();
    trapped.await();

    lines.interruptAll();
    running.join();

    assertThat(result[0].exitCode()).isEqualTo(3);
    assertThat(result[0].output()).contains("interrupted");
  }

  /** livegate's part in the orphan test: runs one command with a PID file, then waits. */
  public static final class Starter {
    public static void main(String[] args) {
      new ProcessCommandRunner()
          .run(
              new Command(
                  List.of(args).subList(2, args.length),
                  Path.of(args[0]),
                  Map.of(),
                  TIMEOUT,
                  java.util.Optional.of(Path.of(args[1])),
                  java.util.Optional.empty()));
    }
  }

  /** Whether process {@code pid} ends (or is left a zombie, which no longer runs) within 10 s. */
  private static boolean waitUntilGone(long pid) throws Exception {
    long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
    while (System.nanoTime() < deadline) {
      Path stat = Path.of("/proc", Long.toString(pid), "stat");
      boolean running =
          ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)
              && Files.exists(stat)
              && !isZombie(stat);
      if (!running) {
        return true;
      }
      Thread.sleep(50);
    }
    return false;
  }

  private static boolean isZombie(Path stat) {
    try {
      String text = Files.readString(stat);
      // "pid (comm) state ...": the state follows the last parenthesis
      return text.substring(text.lastIndexOf(')') + 2).startsWith("Z");
    } catch (IOException e) {
      return false;
    }
  }
}
