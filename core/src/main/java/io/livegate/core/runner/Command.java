package io.livegate.core.runner;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A process to run: an argv list, never a shell string, so PR-controlled paths stay data.
 *
 * @param environment variables added to the runner's own environment
 */
public record Command(
    List<String> argv, Path workingDirectory, Map<String, String> environment, Duration timeout) {
  public Command {
    argv = List.copyOf(argv);
    environment = Map.copyOf(environment);
    Objects.requireNonNull(workingDirectory, "workingDirectory");
    Objects.requireNonNull(timeout, "timeout");
    if (argv.isEmpty()) {
      throw new IllegalArgumentException("a command needs at least a program");
    }
  }
}
