package io.livegate.core.runner;

/**
 * How a command ended.
 *
 * @param exitCode the process's exit code; -1 when it timed out or could not start
 * @param output stdout and stderr, interleaved as they arrived: what people read
 * @param stdout stdout alone: what livegate parses (e.g. {@code show -json}), because tools print
 *     warnings such as a missing CLI configuration file on stderr
 */
public record CommandResult(int exitCode, String output, String stdout, boolean timedOut) {
  /** A result whose output was not split into streams (a failure to start, a scripted result). */
  public CommandResult(int exitCode, String output, boolean timedOut) {
    this(exitCode, output, output, timedOut);
  }

  /** The last {@code lines} lines of the output, for error reports. */
  public String tail(int lines) {
    String[] all = output.strip().split("\n");
    int from = Math.max(0, all.length - lines);
    return String.join("\n", java.util.Arrays.copyOfRange(all, from, all.length));
  }
}
