package io.livegate.process;

import io.livegate.core.LivegateException;
import io.livegate.core.runner.Command;
import io.livegate.core.runner.CommandResult;
import io.livegate.core.runner.CommandRunner;
import io.livegate.core.runner.PrivateTemp;
import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.stream.Stream;

/**
 * Runs commands as local processes from their argv, never through a shell. stdout and stderr are
 * kept apart, so that stdout stays parseable, and are also merged, whole lines as they arrive, into
 * the output people read; each line can also be streamed to a sink as it arrives.
 *
 * <p>A process must be able to outlive livegate: an apply that livegate's death interrupted would
 * leave the resource changed and the state unsaved. So its output goes to files, not to pipes that
 * would break (and kill it at its next write) when the JVM dies, and it runs in a session of its
 * own ({@code setsid}, where the system has it), so that the terminal's Ctrl-C reaches livegate,
 * which then decides when to interrupt it ({@link #interruptAll}). Its PID goes to the command's
 * PID file while it runs. The output files are livegate's, in a {@link PrivateTemp} directory; a
 * command with a PID file keeps them beside it ({@link #keptOutput}), so that a run resumed after
 * livegate died can tell how the process ended.
 *
 * <p>The process gets {@link RunnerEnvironment}'s allow-list of livegate's environment and of the
 * command's, never the rest: it runs code nobody voted on yet.
 */
public final class ProcessCommandRunner implements CommandRunner {
  private static final long POLL_MILLIS = 20;
  private static final Path SETSID = Path.of("/usr/bin/setsid");

  /** The files of a command's standard output and error in its output directory. */
  public static final String STDOUT = "stdout";

  public static final String STDERR = "stderr";

  private final Consumer<String> lineSink;
  private final Set<Process> running = ConcurrentHashMap.newKeySet();

  /** Whether {@link #stopAll} ran: no command starts after it. Guarded by {@link #running}. */
  private boolean stopped;

  public ProcessCommandRunner() {
    this(line -> {});
  }

  /**
   * @param lineSink receives each output line as it is printed, e.g. to prefix and log it
   */
  public ProcessCommandRunner(Consumer<String> lineSink) {
    this.lineSink = lineSink;
  }

  @Override
  public CommandResult run(Command command) {
    String program = command.argv().get(0);
    if (!startable(program)) {
      return new CommandResult(
          -1, "cannot start " + program + ": No such file or directory", false);
    }
    // out of the command's reach: a command could otherwise rewrite another's output as it is read
    Path outputs =
        command.pidFile().isPresent()
            ? keptOutput(command.pidFile().get())
            : PrivateTemp.directory("run-");
    try {
      if (command.pidFile().isPresent()) {
        Files.createDirectories(outputs);
      }
      return run(command, outputs.resolve(STDOUT), outputs.resolve(STDERR));
    } catch (IOException e) {
      throw new LivegateException("cannot create " + outputs + ": " + e.getMessage(), e);
    } finally {
      if (command.pidFile().isEmpty()) {
        delete(outputs);
      }
    }
  }

  /**
   * Where the output of a command with the PID file {@code pidFile} is kept ({@code NAME.output}
   * beside {@code NAME.pid}, holding {@code stdout} and {@code stderr}): a process that may outlive
   * livegate may also end while no livegate watches it, and the run that resumes learns from its
   * output how it ended. The next run of a command with the same PID file overwrites it.
   */
  public static Path keptOutput(Path pidFile) {
    String name = pidFile.getFileName().toString();
    return pidFile.resolveSibling(
        (name.endsWith(".pid") ? name.substring(0, name.length() - 4) : name) + ".output");
  }

  /**
   * Asks every process this runner is running to stop the way terraform expects: one SIGINT, after
   * which it finishes the resource it is changing, saves the state and exits. Where the process
   * leads a session of its own, the signal goes to its whole process group, as a terminal's Ctrl-C
   * would: a sandbox in front of terraform does not pass signals on.
   */
  public void interruptAll() {
    boolean groups = Files.isExecutable(SETSID);
    for (Process process : running) {
      String target = (groups ? "-" : "") + process.pid();
      try {
        new ProcessBuilder("kill", "-INT", "--", target)
            .redirectErrorStream(true)
            .redirectOutput(ProcessBuilder.Redirect.DISCARD)
            .start()
            .waitFor(10, TimeUnit.SECONDS);
      } catch (IOException e) {
        throw new LivegateException("cannot interrupt process " + process.pid() + ": " + e, e);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
  }

  /**
   * Stops for good, for a JVM that exits amid commands that change nothing (a plan scan's plans):
   * no command starts any more, each running one gets one SIGINT ({@link #interruptAll}), and this
   * returns once they have all ended, so that nothing this runner started outlives livegate or
   * finds its temporary files deleted under it.
   *
   * @return how many commands were running
   */
  public int stopAll() throws InterruptedException {
    List<Process> interrupted;
    synchronized (running) {
      stopped = true;
      interrupted = List.copyOf(running);
    }
    interruptAll();
    for (Process process : interrupted) {
      process.waitFor();
    }
    return interrupted.size();
  }

  /** Whether any process of this runner is still running. */
  public boolean busy() {
    return running.stream().anyMatch(Process::isAlive);
  }

  private CommandResult run(Command command, Path stdoutFile, Path stderrFile) {
    List<String> argv = new ArrayList<>();
    if (Files.isExecutable(SETSID)) {
      argv.add(SETSID.toString());
      argv.add("--wait");
    }
    argv.addAll(command.argv());
    ProcessBuilder builder =
        new ProcessBuilder(argv)
            .directory(command.workingDirectory().toFile())
            .redirectInput(
                ProcessBuilder.Redirect.from(
                    command.standardInput().orElse(Path.of("/dev/null")).toFile()))
            .redirectOutput(stdoutFile.toFile())
            .redirectError(stderrFile.toFile());
    builder.environment().clear();
    builder
        .environment()
        .putAll(RunnerEnvironment.forCommand(System.getenv(), command.environment()));
    Process process;
    // One lock with stopAll: a command started as it stops would run on unwaited for.
    synchronized (running) {
      if (stopped) {
        return new CommandResult(
            -1, "not started: livegate is stopping (" + command.argv().get(0) + ")", false);
      }
      try {
        process = builder.start();
      } catch (IOException e) {
        return new CommandResult(
            -1, "cannot start " + command.argv().get(0) + ": " + e.getMessage(), false);
      }
      running.add(process);
    }
    try {
      command.pidFile().ifPresent(file -> writePid(file, process));
      Tail stdout = new Tail(stdoutFile);
      Tail stderr = new Tail(stderrFile);
      ByteArrayOutputStream merged = new ByteArrayOutputStream();
      long deadline = System.nanoTime() + command.timeout().toNanos();
      boolean finished = false;
      try {
        while (!(finished = process.waitFor(POLL_MILLIS, TimeUnit.MILLISECONDS))
            && System.nanoTime() < deadline) {
          stdout.newLines(merged);
          stderr.newLines(merged);
        }
        if (!finished) {
          process.descendants().forEach(ProcessHandle::destroyForcibly);
          process.destroyForcibly();
          process.waitFor(10, TimeUnit.SECONDS);
        }
      } catch (InterruptedException e) {
        process.descendants().forEach(ProcessHandle::destroyForcibly);
        process.destroyForcibly();
        Thread.currentThread().interrupt();
        return new CommandResult(-1, "interrupted", false);
      }
      stdout.newLines(merged);
      stderr.newLines(merged);
      stdout.rest(merged);
      stderr.rest(merged);
      return new CommandResult(
          finished ? process.exitValue() : -1,
          merged.toString(StandardCharsets.UTF_8),
          read(stdoutFile),
          !finished);
    } finally {
      running.remove(process);
      command.pidFile().ifPresent(ProcessCommandRunner::delete);
    }
  }

  /** Reads one output file as it grows, and passes on each whole line once. */
  private final class Tail {
    private final Path file;
    private long offset;
    private final ByteArrayOutputStream line = new ByteArrayOutputStream();

    Tail(Path file) {
      this.file = file;
    }

    void newLines(ByteArrayOutputStream merged) {
      try (RandomAccessFile in = new RandomAccessFile(file.toFile(), "r")) {
        in.seek(offset);
        byte[] buffer = new byte[8192];
        int read;
        while ((read = in.read(buffer)) > 0) {
          offset += read;
          for (int i = 0; i < read; i++) {
            line.write(buffer[i]);
            if (buffer[i] == '\n') {
              merged.writeBytes(line.toByteArray());
              String text = line.toString(StandardCharsets.UTF_8);
              lineSink.accept(text.substring(0, text.length() - 1));
              line.reset();
            }
          }
        }
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }

    /** The last line, which the process ended without a newline. */
    void rest(ByteArrayOutputStream merged) {
      if (line.size() > 0) {
        merged.writeBytes(line.toByteArray());
        lineSink.accept(line.toString(StandardCharsets.UTF_8));
        line.reset();
      }
    }
  }

  /** Whether {@code program} names an executable, as a path or on PATH. */
  private static boolean startable(String program) {
    if (program.contains("/")) {
      return Files.isExecutable(Path.of(program));
    }
    String path = System.getenv().getOrDefault("PATH", "");
    for (String dir : path.split(File.pathSeparator)) {
      if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, program))) {
        return true;
      }
    }
    return false;
  }

  /**
   * Writes the PID file whole or not at all (a temporary file moved into place), so that a resumed
   * run that finds the file never reads it half-written and takes a running apply for none. When it
   * cannot be written (a full disk), the process is running all the same: this run goes on watching
   * it to its end and reports how it ended, as without the file; only a run that dies meanwhile
   * loses it. Throwing here instead would leave an apply running that nothing waits for, which a
   * retry would plan and apply again beside it.
   */
  private void writePid(Path file, Process process) {
    Path partial = null;
    try {
      Files.createDirectories(file.getParent());
      partial = Files.createTempFile(file.getParent(), file.getFileName().toString(), ".new");
      Files.writeString(partial, process.pid() + "\n");
      Files.move(
          partial, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    } catch (IOException e) {
      lineSink.accept(
          "warning: cannot write "
              + file
              + " ("
              + e
              + "); pid "
              + process.pid()
              + " runs on, and this run waits for it");
      if (partial != null) {
        try {
          Files.deleteIfExists(partial);
        } catch (IOException ignored) {
          // A leftover .new file is never read as a PID file; the next run's start replaces it.
        }
      }
    }
  }

  private static String read(Path file) {
    try {
      return Files.readString(file, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static void delete(Path path) {
    try (Stream<Path> files = Files.exists(path) ? Files.walk(path) : Stream.empty()) {
      for (Path file : files.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(file);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
