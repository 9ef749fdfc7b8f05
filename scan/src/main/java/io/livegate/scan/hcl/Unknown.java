package io.livegate.scan.hcl;

/**
 * A value that cannot be known when the graph is scanned: a dependency's outputs, a function
 * livegate will not run (such as {@code run_cmd}), or a sub-expression that failed. It flows
 * through operators and functions unchanged, so a config only fails where such a value is really
 * needed, such as in a {@code config_path}.
 *
 * @param file the repo-relative file of the construct that made it unknown
 * @param line its 1-based line, or 0 where it is not known
 * @param column its 1-based column, or 0 where it is not known
 * @param problem what made it unknown, without its location
 */
public record Unknown(String file, int line, int column, String problem) {
  public static Unknown at(String file, int line, String problem) {
    return at(file, line, 0, problem);
  }

  /** With the column too: {@code file:line:column: problem}. */
  public static Unknown at(String file, int line, int column, String problem) {
    return new Unknown(file, line, column, problem);
  }

  /** What made it unknown, and where: {@code file:line:column: problem}. */
  public String reason() {
    return InvalidHcl.location(file, line, column) + ": " + problem;
  }

  /**
   * The reason as told in an error that already names {@code errorFile:errorLine}, so that the
   * location is said once: the bare problem when it is that very line, {@code line L:C: problem}
   * when it is elsewhere in the same file, the full reason when it is in another file.
   */
  public String reasonSeenFrom(String errorFile, int errorLine) {
    if (!file.equals(errorFile)) {
      return reason();
    }
    if (line == errorLine || line <= 0) {
      return problem;
    }
    return "line " + line + (column > 0 ? ":" + column : "") + ": " + problem;
  }
}
