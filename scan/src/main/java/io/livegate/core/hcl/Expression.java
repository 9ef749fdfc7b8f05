package io.livegate.core.hcl;

import com.bertramlabs.plugins.hcl4j.symbols.Symbol;
import java.util.List;

/**
 * The unevaluated right-hand side of an attribute: hcl4j's symbols, in source order, with any
 * operators between them. {@link Evaluator} gives it a value in a {@link Scope}.
 *
 * @param file the repo-relative file it comes from, for messages
 */
public record Expression(String file, List<Symbol> symbols) {
  public Expression {
    symbols = List.copyOf(symbols);
  }

  /** The 1-based line where the expression starts. */
  public int line() {
    return symbols.isEmpty() ? 0 : Evaluator.lineOf(symbols.get(0));
  }
}
