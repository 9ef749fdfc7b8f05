package io.livegate.core.runner;

import io.livegate.core.Printable;
import java.time.Instant;
import java.util.Optional;

/**
 * How every runtime's {@link ExecutionLogs} keeps a log bounded: a command's output keeps its first
 * {@value #HEAD} and last {@value #TAIL} characters (terraform's error is at the end), and a log
 * stops growing at {@value #MAX_LOG} characters, saying so. Control characters in the command and
 * the output are escaped ({@link Printable}): a log line comes from livegate, never from the
 * repository.
 */
public final class BoundedLog {
  public static final int HEAD = 16 * 1024;
  public static final int TAIL = 112 * 1024;
  public static final int MAX_LOG = 1024 * 1024;
  private static final String FULL =
      "--- this log reached its size limit; later output is not kept\n";

  private BoundedLog() {}

  /**
   * The text to add to a log of {@code size} characters for one command, or empty when the log is
   * full already.
   */
  public static Optional<String> entry(
      long size, String command, int exitCode, String output, Instant at) {
    if (size >= MAX_LOG) {
      return Optional.empty();
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
            + kept(output);
    if (!entry.endsWith("\n")) {
      entry += "\n";
    }
    if (size + entry.length() > MAX_LOG) {
      entry =
          entry.substring(0, (int) Math.max(0, MAX_LOG - size - FULL.length() - 1)) + "\n" + FULL;
    }
    return Optional.of(entry);
  }

  /** Whether {@code executionName} can name a log: a file name or an object key as it is. */
  public static boolean isExecutionName(String executionName) {
    return executionName.matches("[A-Za-z0-9_-]+");
  }

  /**
   * What a log keeps of a command's {@code output}: its first and last characters, its control
   * characters but line breaks escaped. A copy of a plan's text kept beside the log (the console's
   * on AWS) is kept the same way.
   */
  public static String kept(String output) {
    return Printable.escapeExceptLines(bounded(output));
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
