package io.livegate.cli.process;

import io.livegate.core.runner.Command;
import io.livegate.core.runner.CommandResult;
import io.livegate.core.runner.CommandRunner;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * Runs commands as local processes from their argv, never through a shell. stderr is merged into
 * stdout; each line can also be streamed to a sink as it arrives.
 */
public final class ProcessCommandRunner implements CommandRunner {
  private final Consumer<String> lineSink;

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
    ProcessBuilder builder =
        new ProcessBuilder(command.argv())
            .directory(command.workingDirectory().toFile())
            .redirectErrorStream(true)
            .redirectInput(ProcessBuilder.Redirect.PIPE);
    builder.environment().putAll(command.environment());
    Process process;
    try {
      process = builder.start();
    } catch (IOException e) {
      return new CommandResult(
          -1, "cannot start " + command.argv().get(0) + ": " + e.getMessage(), false);
    }
    try {
      process.getOutputStream().close();
    } catch (IOException ignored) {
      // the process may already have exited; its stdin is not used either way
    }
    ByteArrayOutputStream output = new ByteArrayOutputStream();
    Thread reader = new Thread(() -> copy(process.getInputStream(), output), "livegate-output");
    reader.setDaemon(true);
    reader.start();
    try {
      boolean finished = process.waitFor(command.timeout().toMillis(), TimeUnit.MILLISECONDS);
      if (!finished) {
        process.descendants().forEach(ProcessHandle::destroyForcibly);
        process.destroyForcibly();
        process.waitFor(10, TimeUnit.SECONDS);
      }
      reader.join(TimeUnit.SECONDS.toMillis(10));
      String text;
      synchronized (output) {
        text = output.toString(StandardCharsets.UTF_8);
      }
      return new CommandResult(finished ? process.exitValue() : -1, text, !finished);
    } catch (InterruptedException e) {
      process.descendants().forEach(ProcessHandle::destroyForcibly);
      process.destroyForcibly();
      Thread.currentThread().interrupt();
      return new CommandResult(-1, "interrupted", false);
    }
  }

  private void copy(InputStream stream, ByteArrayOutputStream output) {
    ByteArrayOutputStream line = new ByteArrayOutputStream();
    byte[] buffer = new byte[8192];
    try (stream) {
      int read;
      while ((read = stream.read(buffer)) >= 0) {
        synchronized (output) {
          output.write(buffer, 0, read);
        }
        for (int i = 0; i < read; i++) {
          if (buffer[i] == '\n') {
            lineSink.accept(line.toString(StandardCharsets.UTF_8));
            line.reset();
          } else {
            line.write(buffer[i]);
          }
        }
      }
      if (line.size() > 0) {
        lineSink.accept(line.toString(StandardCharsets.UTF_8));
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
