package io.livegate.scan.terragrunt;

/**
 * Why terragrunt leaves a unit out of plan and apply: an active {@code exclude} block whose actions
 * cover them, or {@code skip = true}.
 *
 * @param file the file that decides it: the unit's config or a file it includes
 * @param line the 1-based line of the block or attribute
 * @param excludeDependencies whether the units it depends on are left out too
 * @param declaredAs how it is written, e.g. {@code skip = true}
 */
public record Exclusion(String file, int line, boolean excludeDependencies, String declaredAs) {
  /** For messages: {@code declaredAs at file:line}. */
  public String where() {
    return declaredAs + " at " + file + ":" + line;
  }
}
