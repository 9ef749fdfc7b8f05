package io.livegate.core.runner;

/**
 * How a command ended.
 *
 * @param exitCode the process's exit code; -1 when it timed out or could not start
 * @param output stdout and stderr, interleaved as they arrived
 */
public record CommandResult(int exitCode, String output, boolean timedOut) {
  /** The last {@code lines} lines of the output, for error reports. */
  public String tail(int lines) {
    String[] all = output.strip().split("\n");
    int from = Math.max(0, all.length - lines);
    return String.join("\n", java.util.Arrays.copyOfRange(all, from, all.length));
  }
}
