package io.livegate.core.hcl;

import io.livegate.core.LivegateException;

/** A file that cannot be parsed, or an expression livegate cannot evaluate where it must. */
public class InvalidHcl extends LivegateException {
  private static final long serialVersionUID = 1L;

  private final String file;
  private final int line;
  private final String problem;

  /**
   * @param file the repo-relative path of the file
   * @param line the 1-based line, or 0 where it is not known
   */
  public InvalidHcl(String file, int line, String problem) {
    super(file + (line > 0 ? ":" + line : "") + ": " + problem);
    this.file = file;
    this.line = line;
    this.problem = problem;
  }

  public String file() {
    return file;
  }

  public int line() {
    return line;
  }

  /** The message without its location. */
  public String problem() {
    return problem;
  }
}
