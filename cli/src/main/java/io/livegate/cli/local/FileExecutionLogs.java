package io.livegate.cli.local;

import io.livegate.core.LivegateException;
import io.livegate.core.Printable;
import io.livegate.core.runner.ExecutionLogs;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.Optional;

/**
 * The execution logs of the local runtime: one file per execution in the state directory's {@code
 * logs}, readable by its owner only like the rest of it. Each is bounded: a command's output keeps
 * its first {@value #HEAD} and last {@value #TAIL} characters (terraform's error is at the end),
 * and a log stops growing at {@value #MAX_LOG} characters, saying so.
 */
public final class FileExecutionLogs implements ExecutionLogs {
  static final int HEAD = 16 * 1024;
  static final int TAIL = 112 * 1024;
  static final int MAX_LOG = 1024 * 1024;
  private static final String FULL =
      "--- this log reached its size limit; later output is not kept\n";

  private final Path directory;

  public FileExecutionLogs(Path directory) {
    this.directory = directory;
  }

  @Override
  public synchronized void append(
      String executionName, String command, int exitCode, String output, Instant at) {
    Path file = file(executionName);
    try {
      Files.createDirectories(directory);
      long size = Files.exists(file) ? Files.size(file) : 0;
      if (size >= MAX_LOG) {
        return;
      }
      // what terraform printed, and the unit path in the command, are the repository's
      String entry =
          "--- "
              + at
              + "  "
              + Printable.escape(command)
              + "  (exit "
              + exitCode
              + ")\n"
              + Printable.escapeExceptLines(bounded(output));
      if (!entry.endsWith("\n")) {
        entry += "\n";
      }
      if (size + entry.length() > MAX_LOG) {
        entry =
            entry.substring(0, (int) Math.max(0, MAX_LOG - size - FULL.length() - 1)) + "\n" + FULL;
      }
      Files.writeString(
          file,
          entry,
          StandardCharsets.UTF_8,
          StandardOpenOption.CREATE,
          StandardOpenOption.APPEND);
      OwnerOnly.restrict(file);
    } catch (IOException e) {
      throw new LivegateException("cannot write the log " + file + ": " + e.getMessage(), e);
    }
  }

  @Override
  public Optional<String> read(String executionName) {
    Path file = file(executionName);
    try {
      return Optional.of(Files.readString(file, StandardCharsets.UTF_8));
    } catch (NoSuchFileException e) {
      return Optional.empty();
    } catch (IOException e) {
      throw new LivegateException("cannot read the log " + file + ": " + e.getMessage(), e);
    }
  }

  private Path file(String executionName) {
    if (!executionName.matches("[A-Za-z0-9_-]+")) {
      throw new LivegateException("'" + executionName + "' is not an execution name");
    }
    return directory.resolve(executionName + ".log");
  }

  static String bounded(String output) {
    if (output.length() <= HEAD + TAIL) {
      return output;
    }
    return output.substring(0, HEAD)
        + "\n--- "
        + (output.length() - HEAD - TAIL)
        + " characters left out ---\n"
        + output.substring(output.length() - TAIL);
  }
}
