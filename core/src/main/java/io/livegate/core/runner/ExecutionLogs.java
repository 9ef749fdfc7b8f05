package io.livegate.core.runner;

import java.time.Instant;
import java.util.Optional;

/**
 * Where the output of an execution's commands (plan, apply, destroy, rollback) is kept after the
 * run, so that an operator can read why a unit failed once the terminal is gone. Each runtime keeps
 * it its own way (the state directory locally; S3 on AWS) and bounds its size.
 */
public interface ExecutionLogs {
  /**
   * Adds one command's output to the log of the execution named {@code executionName}.
   *
   * @param command what ran, for people (the program and its arguments)
   * @param output what it printed; terraform has already redacted sensitive values in it
   */
  void append(String executionName, String command, int exitCode, String output, Instant at);

  /** The execution's log so far, or empty when none of its commands was logged. */
  Optional<String> read(String executionName);

  /**
   * Where the log of the execution named {@code executionName} is kept, for people: a file's path
   * locally, an {@code s3://} URL on AWS.
   */
  String location(String executionName);
}
