package io.livegate.scan.terragrunt;

import io.livegate.core.LivegateException;

/** A terragrunt config that parses but cannot be read for its dependencies. */
public class InvalidTerragruntConfig extends LivegateException {
  private static final long serialVersionUID = 1L;

  /**
   * @param file the repo-relative file
   * @param line the 1-based line, or 0 where it is not known
   */
  public InvalidTerragruntConfig(String file, int line, String problem) {
    super(file + (line > 0 ? ":" + line : "") + ": " + problem);
  }

  /** Several problems found in one pass, each already naming its file and line. */
  public InvalidTerragruntConfig(java.util.List<String> problems) {
    super(
        problems.size() == 1
            ? problems.get(0)
            : problems.size()
                + " problems in the live repository:\n  "
                + String.join("\n  ", problems));
  }
}
