package io.livegate.cli.local;

import io.livegate.core.LivegateException;
import io.livegate.core.runner.BoundedLog;
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
 * logs}, readable by its owner only like the rest of it, bounded as {@link BoundedLog} says.
 */
public final class FileExecutionLogs implements ExecutionLogs {
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
      Optional<String> entry = BoundedLog.entry(size, command, exitCode, output, at);
      if (entry.isEmpty()) {
        return;
      }
      Files.writeString(
          file,
          entry.get(),
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

  @Override
  public String location(String executionName) {
    return file(executionName).toString();
  }

  private Path file(String executionName) {
    if (!BoundedLog.isExecutionName(executionName)) {
      throw new LivegateException("'" + executionName + "' is not an execution name");
    }
    return directory.resolve(executionName + ".log");
  }
}
