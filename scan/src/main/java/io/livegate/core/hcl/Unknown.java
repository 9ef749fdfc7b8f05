package io.livegate.core.hcl;

/**
 * A value that cannot be known when the graph is scanned: a dependency's outputs, a function
 * livegate will not run (such as {@code run_cmd}), or a sub-expression that failed. It flows
 * through operators and functions unchanged, so a config only fails where such a value is really
 * needed, such as in a {@code config_path}.
 *
 * @param reason what made it unknown, and where
 */
public record Unknown(String reason) {
  public static Unknown at(String file, int line, String problem) {
    return at(file, line, 0, problem);
  }

  /** With the column too: {@code file:line:column: problem}. */
  public static Unknown at(String file, int line, int column, String problem) {
    return new Unknown(InvalidHcl.location(file, line, column) + ": " + problem);
  }
}
