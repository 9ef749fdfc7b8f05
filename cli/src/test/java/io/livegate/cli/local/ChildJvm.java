package io.livegate.cli.local;

import io.livegate.cli.Livegate;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BooleanSupplier;

/**
 * The command that runs a main class in a JVM of its own, on this test's class path: how the crash
 * tests get a livegate (or a stand-in) they can kill; and how they wait for it.
 *
 * <p>They wait for events (a line in the child's log, the child's exit), never for a fixed time: on
 * a loaded machine a deployment can take several times as long as on a quiet one. What is bounded
 * is silence: a child whose log has not changed for {@link #STUCK} is stuck, and the wait fails
 * with its log.
 */
final class ChildJvm {
  /** How long a working child's log may stay unchanged: a terraform run on a loaded machine. */
  static final Duration STUCK = Duration.ofMinutes(5);

  private static final long POLL_MILLIS = 20;

  private ChildJvm() {}

  static List<String> command(Class<?> main, List<String> arguments) {
    return command(List.of(), main, arguments);
  }

  /** The command that runs {@code main} in a JVM with {@code options} (a heap size, say). */
  static List<String> command(List<String> options, Class<?> main, List<String> arguments) {
    List<String> command = new ArrayList<>();
    // SIGHUP as a terminal sends it, even when the build runs under nohup: an ignored signal is
    // inherited, and the JVM then installs no handler for it, so the SIGHUP cases would test nohup
    // (env execs the JVM: the child's pid is the JVM's)
    command.add("env");
    command.add("--default-signal=HUP");
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    // The JVM options of the ./livegate script: the quick C1 compiler only (C2's compilations
    // cost a short command more CPU than they save) and no hsperfdata file.
    command.add("-XX:TieredStopAtLevel=1");
    command.add("-XX:-UsePerfData");
    command.addAll(options);
    command.add("-cp");
    command.add(System.getProperty("java.class.path"));
    command.add(main.getName());
    command.addAll(arguments);
    return command;
  }

  /**
   * Starts {@code livegate} with {@code arguments} in a JVM of its own, all output to {@code log}.
   */
  static Process livegate(Path log, List<String> arguments) throws IOException {
    return new ProcessBuilder(command(Livegate.class, arguments))
        .redirectErrorStream(true)
        .redirectOutput(log.toFile())
        .start();
  }

  /**
   * Waits until {@code condition} holds; fails when {@code run} ends first, or when its log stays
   * unchanged for {@link #STUCK}.
   */
  static void await(BooleanSupplier condition, String what, Process run, Path log)
      throws InterruptedException {
    Silence silence = new Silence(log);
    while (!condition.getAsBoolean()) {
      // Once more after the run ended: it may have made the condition true just before.
      if (!run.isAlive() && !condition.getAsBoolean()) {
        throw new AssertionError(
            "the run ended (exit " + run.exitValue() + ") before " + what + ":\n" + read(log));
      }
      silence.check("waiting until " + what);
      Thread.sleep(POLL_MILLIS);
    }
  }

  /** Waits until {@code run} exits; fails when its log stays unchanged for {@link #STUCK}. */
  static void awaitExit(Process run, Path log) throws InterruptedException {
    Silence silence = new Silence(log);
    while (run.isAlive()) {
      silence.check("waiting for the run to end");
      Thread.sleep(POLL_MILLIS);
    }
  }

  static String read(Path log) {
    try {
      return Files.exists(log) ? Files.readString(log) : "";
    } catch (IOException e) {
      return "(cannot read " + log + ": " + e.getMessage() + ")";
    }
  }

  /** When a log last changed. */
  private static final class Silence {
    private final Path log;
    private long size = -1;
    private Instant changed = Instant.now();

    Silence(Path log) {
      this.log = log;
    }

    void check(String what) {
      long now;
      try {
        now = Files.exists(log) ? Files.size(log) : 0;
      } catch (IOException e) {
        now = size;
      }
      if (now != size) {
        size = now;
        changed = Instant.now();
      } else if (Instant.now().isAfter(changed.plus(STUCK))) {
        throw new AssertionError(
            "the log did not change for " + STUCK + " " + what + ":\n" + read(log));
      }
    }
  }
}
