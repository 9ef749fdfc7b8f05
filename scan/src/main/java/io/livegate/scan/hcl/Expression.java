package io.livegate.scan.hcl;

/**
 * The unevaluated right-hand side of an attribute: its syntax tree. {@link Evaluator} gives it a
 * value in a {@link Scope}.
 *
 * @param file the repo-relative file it comes from, for messages
 */
public record Expression(String file, Node node) {

  /** The 1-based line where the expression starts. */
  public int line() {
    return node.position().line();
  }

  /** The 1-based column where the expression starts. */
  public int column() {
    return node.position().column();
  }
}
