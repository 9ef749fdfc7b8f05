package io.livegate.core.runner;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * A process to run: an argv list, never a shell string, so PR-controlled paths stay data.
 *
 * @param environment variables added to the runner's own environment
 * @param pidFile where the runner writes the process's PID while it runs, so that a run resumed
 *     after livegate died can find an apply that outlived it; the runner keeps such a process's
 *     output beside it too, so that the resumed run can tell how it ended
 * @param standardInput the file the process reads on its standard input, which is otherwise empty
 *     ({@code /dev/null}): what a {@link Sandbox} needs to pass its program, e.g. bubblewrap's
 *     seccomp filter ({@link Sandbox#standardInput})
 */
public record Command(
    List<String> argv,
    Path workingDirectory,
    Map<String, String> environment,
    Duration timeout,
    Optional<Path> pidFile,
    Optional<Path> standardInput) {
  public Command {
    argv = List.copyOf(argv);
    environment = Map.copyOf(environment);
    Objects.requireNonNull(workingDirectory, "workingDirectory");
    Objects.requireNonNull(timeout, "timeout");
    Objects.requireNonNull(pidFile, "pidFile");
    Objects.requireNonNull(standardInput, "standardInput");
    if (argv.isEmpty()) {
      throw new IllegalArgumentException("a command needs at least a program");
    }
  }

  /** A command with neither a PID file nor a standard input, as most are. */
  public Command(
      List<String> argv, Path workingDirectory, Map<String, String> environment, Duration timeout) {
    this(argv, workingDirectory, environment, timeout, Optional.empty(), Optional.empty());
  }
}
