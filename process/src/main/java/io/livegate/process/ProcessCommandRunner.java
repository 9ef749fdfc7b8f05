package io.livegate.process;

import io.livegate.core.runner.Command;
import io.livegate.core.runner.CommandResult;
import io.livegate.core.runner.CommandRunner;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * Runs commands as local processes from their argv, never through a shell. stdout and stderr are
 * read apart, so that stdout stays parseable, and are also merged as they arrive into the output
 * people read; each line can also be streamed to a sink as it arrives.
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
    ByteArrayOutputStream stdout = new ByteArrayOutputStream();
    Thread stdoutReader = reader(process.getInputStream(), output, stdout);
    Thread stderrReader = reader(process.getErrorStream(), output, OutputStream.nullOutputStream());
    try {
      boolean finished = process.waitFor(command.timeout().toMillis(), TimeUnit.MILLISECONDS);
      if (!finished) {
        process.descendants().forEach(ProcessHandle::destroyForcibly);
        process.destroyForcibly();
        process.waitFor(10, TimeUnit.SECONDS);
      }
      stdoutReader.join(TimeUnit.SECONDS.toMillis(10));
      stderrReader.join(TimeUnit.SECONDS.toMillis(10));
      String text;
      synchronized (output) {
        text = output.toString(StandardCharsets.UTF_8);
      }
      return new CommandResult(
          finished ? process.exitValue() : -1,
          text,
          stdout.toString(StandardCharsets.UTF_8),
          !finished);
    } catch (InterruptedException e) {
      process.descendants().forEach(ProcessHandle::destroyForcibly);
      process.destroyForcibly();
      Thread.currentThread().interrupt();
      return new CommandResult(-1, "interrupted", false);
    }
  }

  private Thread reader(InputStream stream, ByteArrayOutputStream output, OutputStream alone) {
    Thread reader = new Thread(() -> copy(stream, output, alone), "livegate-output");
    reader.setDaemon(true);
    reader.start();
    return reader;
  }

  /**
   * Copies one stream into {@code alone} and, whole lines at a time so that the two streams do not
   * cut into each other's lines, into the shared {@code output}.
   */
  private void copy(InputStream stream, ByteArrayOutputStream output, OutputStream alone) {
    ByteArrayOutputStream line = new ByteArrayOutputStream();
    byte[] buffer = new byte[8192];
    try (stream) {
      int read;
      while ((read = stream.read(buffer)) >= 0) {
        alone.write(buffer, 0, read);
        for (int i = 0; i < read; i++) {
          line.write(buffer[i]);
          if (buffer[i] == '\n') {
            synchronized (output) {
              line.writeTo(output);
            }
            String text = line.toString(StandardCharsets.UTF_8);
            lineSink.accept(text.substring(0, text.length() - 1));
            line.reset();
          }
        }
      }
      if (line.size() > 0) {
        synchronized (output) {
          line.writeTo(output);
        }
        lineSink.accept(line.toString(StandardCharsets.UTF_8));
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
