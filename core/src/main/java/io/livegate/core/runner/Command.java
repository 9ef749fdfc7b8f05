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
 *     after livegate died can find an apply that outlived it
 */
public record Command(
    List<String> argv,
    Path workingDirectory,
    Map<String, String> environment,
    Duration timeout,
    Optional<Path> pidFile) {
  public Command {
    argv = List.copyOf(argv);
    environment = Map.copyOf(environment);
    Objects.requireNonNull(workingDirectory, "workingDirectory");
    Objects.requireNonNull(timeout, "timeout");
    Objects.requireNonNull(pidFile, "pidFile");
    if (argv.isEmpty()) {
      throw new IllegalArgumentException("a command needs at least a program");
    }
  }

  public Command(
      List<String> argv, Path workingDirectory, Map<String, String> environment, Duration timeout) {
    this(argv, workingDirectory, environment, timeout, Optional.empty());
  }
}
