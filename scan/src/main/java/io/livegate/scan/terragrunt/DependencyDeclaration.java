package io.livegate.scan.terragrunt;

/**
 * One declared dependency of a unit.
 *
 * @param target the unit id it points to
 * @param file the file that declares it: the unit's own config or a file it includes
 * @param line the 1-based line of the declaration
 * @param declaredAs how it is declared, e.g. {@code dependency "vpc"} or {@code dependencies.paths}
 */
public record DependencyDeclaration(String target, String file, int line, String declaredAs) {
  /** Where it is declared, for messages: {@code file:line (declaredAs)}. */
  public String where() {
    return file + ":" + line + " (" + declaredAs + ")";
  }
}
