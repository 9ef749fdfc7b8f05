package io.livegate.aws;

/**
 * Step Functions refuses a {@code cause} longer than 32,768 characters (StopExecution,
 * SendTaskFailure); livegate keeps a margin below it. Which end to keep depends on the text.
 */
final class SfnCause {
  static final int MAX_LENGTH = 32_000;

  private SfnCause() {}

  /** The beginning: a message that says what happened first. */
  static String head(String cause) {
    return cause.length() > MAX_LENGTH ? cause.substring(0, MAX_LENGTH) : cause;
  }

  /** The end: a tool's output, whose error is in its last lines. */
  static String tail(String cause) {
    return cause.length() > MAX_LENGTH ? cause.substring(cause.length() - MAX_LENGTH) : cause;
  }
}
