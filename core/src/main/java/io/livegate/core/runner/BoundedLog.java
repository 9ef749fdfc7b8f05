package io.livegate.core.runner;

import io.livegate.core.Printable;
import java.time.Instant;
import java.util.Optional;
import java.util.function.UnaryOperator;

/**
 * How every runtime's {@link ExecutionLogs} keeps a log bounded: a command's output keeps its first
 * {@value #HEAD} and last {@value #TAIL} characters (terraform's error is at the end), and a log
 * stops growing at {@value #MAX_LOG} characters, saying so. Control characters in the command and
 * the output are escaped ({@link Printable}), and every line of the output is indented ({@link
 * Printable#indented}) under its command's header: livegate's own lines ({@code --- ...}) start at
 * the margin, and no line that terraform or the code it runs prints can, so none passes for one.
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
            + cut(output, Printable::indented);
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
   * What the console keeps of a plan's text beside the log (on AWS): its first and last characters,
   * cut as a log's output is, its control characters but line breaks escaped, not indented.
   */
  public static String kept(String output) {
    return cut(output, Printable::escapeExceptLines);
  }

  /** {@code output} through {@code keep}, cut in the middle with a line of livegate's when long. */
  private static String cut(String output, UnaryOperator<String> keep) {
    if (output.length() <= HEAD + TAIL) {
      return keep.apply(output);
    }
    return keep.apply(output.substring(0, HEAD))
        + "\n--- "
        + (output.length() - HEAD - TAIL)
        + " characters left out ---\n"
        + keep.apply(output.substring(output.length() - TAIL));
  }
}
