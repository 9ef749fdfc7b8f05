package io.livegate.scan.hcl;

import io.livegate.core.LivegateException;

/** A file that cannot be parsed, or an expression livegate cannot evaluate where it must. */
public class InvalidHcl extends LivegateException {
  private static final long serialVersionUID = 1L;

  private final String file;
  private final int line;
  private final int column;
  private final String problem;

  /**
   * @param file the repo-relative path of the file
   * @param line the 1-based line, or 0 where it is not known
   */
  public InvalidHcl(String file, int line, String problem) {
    this(file, line, 0, problem);
  }

  /**
   * @param column the 1-based column, or 0 where it is not known
   */
  public InvalidHcl(String file, int line, int column, String problem) {
    super(location(file, line, column) + ": " + problem);
    this.file = file;
    this.line = line;
    this.column = column;
    this.problem = problem;
  }

  /** {@code file:line:column}, leaving out what is not known. */
  static String location(String file, int line, int column) {
    if (line <= 0) {
      return file;
    }
    return file + ":" + line + (column > 0 ? ":" + column : "");
  }

  public String file() {
    return file;
  }

  public int line() {
    return line;
  }

  /** The 1-based column, or 0 where it is not known. */
  public int column() {
    return column;
  }

  /** The message without its location. */
  public String problem() {
    return problem;
  }
}
