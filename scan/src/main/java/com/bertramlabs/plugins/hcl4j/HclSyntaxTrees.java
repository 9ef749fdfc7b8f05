package com.bertramlabs.plugins.hcl4j;

import com.bertramlabs.plugins.hcl4j.symbols.Symbol;
import java.io.IOException;
import java.io.StringReader;
import java.util.List;

/**
 * The one bridge into hcl4j's package-private lexer. livegate uses hcl4j only for syntax and
 * evaluates the tree itself, because hcl4j's evaluator drops unknown references silently and runs
 * HTTP data lookups (see docs/adr/0002-hcl4j-syntax-own-evaluator.md).
 */
public final class HclSyntaxTrees {
  private HclSyntaxTrees() {}

  /**
   * The top-level blocks and attributes of {@code source}, or a syntax error. A newline is added at
   * the end: the lexer closes an object attribute ({@code inputs = { ... }}) only on the line break
   * after its brace, so a file that ends right at that brace would read as never closed.
   */
  public static List<Symbol> lex(String source) throws HCLParserException {
    HCLLexer lexer = new HCLLexer(new StringReader(source + "\n"));
    try {
      lexer.yylex();
    } catch (IOException impossible) {
      throw new HCLParserException("reading an in-memory string failed", impossible);
    }
    if (lexer.currentBlock != null) {
      Symbol open = lexer.currentBlock;
      while (open.getParent() != null) {
        open = open.getParent();
      }
      throw new HCLParserException(
          "'" + open.getName() + "' opened on line " + (open.getLine() + 1) + " is never closed");
    }
    return lexer.elementStack;
  }
}
