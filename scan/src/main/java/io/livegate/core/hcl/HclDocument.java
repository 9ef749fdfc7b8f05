package io.livegate.core.hcl;

import com.bertramlabs.plugins.hcl4j.HCLParserException;
import com.bertramlabs.plugins.hcl4j.HclSyntaxTrees;
import com.bertramlabs.plugins.hcl4j.symbols.HCLAttribute;
import com.bertramlabs.plugins.hcl4j.symbols.HCLBlock;
import com.bertramlabs.plugins.hcl4j.symbols.Symbol;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** One parsed HCL file: its top-level attributes and blocks, not yet evaluated. */
public final class HclDocument {
  private static final Pattern LEXER_LINE = Pattern.compile("on line: (\\d+)");

  private final String file;
  private final Block body;

  private HclDocument(String file, Block body) {
    this.file = file;
    this.body = body;
  }

  /**
   * Parses {@code text}.
   *
   * @param file the repo-relative path, used in messages
   * @throws InvalidHcl when the file is not valid HCL; the message names the file and line
   */
  public static HclDocument parse(String file, String text) {
    StructureCheck.verify(file, text);
    List<Symbol> symbols;
    try {
      symbols = HclSyntaxTrees.lex(text);
    } catch (HCLParserException | RuntimeException e) {
      throw new InvalidHcl(file, lexerLine(e), "cannot parse: " + firstLine(e.getMessage()));
    }
    return new HclDocument(file, body(file, "", List.of(), symbols, 1));
  }

  public String file() {
    return file;
  }

  public List<Block> blocks(String type) {
    return body.blocks(type);
  }

  /** Every top-level block, in source order. */
  public List<Block> blocks() {
    return body.blocks();
  }

  public Optional<Attribute> attribute(String name) {
    return body.attribute(name);
  }

  public Map<String, Attribute> attributes() {
    return body.attributes();
  }

  private static Block body(
      String file, String type, List<String> labels, List<Symbol> children, int line) {
    Map<String, Attribute> attributes = new LinkedHashMap<>();
    List<Block> blocks = new ArrayList<>();
    for (Symbol child : children) {
      if (child instanceof HCLBlock block) {
        List<String> names = block.blockNames;
        blocks.add(
            body(
                file,
                names.get(0),
                List.copyOf(names.subList(1, names.size())),
                block.getChildren(),
                Evaluator.lineOf(block)));
      } else if (child instanceof HCLAttribute attribute) {
        requireValues(file, attribute);
        Attribute parsed =
            new Attribute(
                attribute.getName(),
                new Expression(file, attribute.getChildren()),
                Evaluator.lineOf(attribute));
        Attribute earlier = attributes.putIfAbsent(parsed.name(), parsed);
        if (earlier != null) {
          throw new InvalidHcl(
              file,
              parsed.line(),
              "attribute '" + parsed.name() + "' is already defined on line " + earlier.line());
        }
      }
    }
    return new Block(
        type, labels, Collections.unmodifiableMap(attributes), List.copyOf(blocks), line);
  }

  /**
   * hcl4j reads {@code name =} with nothing after it, in a body or inside an object, as an
   * attribute without a value, which would evaluate to null; HCL rejects it.
   */
  private static void requireValues(String file, Symbol symbol) {
    if (symbol instanceof HCLAttribute attribute && attribute.getChildren().isEmpty()) {
      throw new InvalidHcl(
          file,
          Evaluator.lineOf(attribute),
          "attribute '" + attribute.getName() + "' has no value");
    }
    if (symbol.getChildren() != null) {
      symbol.getChildren().forEach(child -> requireValues(file, child));
    }
  }

  /**
   * The line of a lexer error. Unlike its symbols' lines, the lexer's "on line: N" in a message
   * already counts from 1.
   */
  private static int lexerLine(Exception e) {
    Matcher matcher = LEXER_LINE.matcher(String.valueOf(e.getMessage()));
    return matcher.find() ? Integer.parseInt(matcher.group(1)) : 0;
  }

  private static String firstLine(String message) {
    if (message == null) {
      return "unrecognised syntax";
    }
    return message.replace('\n', ' ').replace('\r', ' ').strip();
  }
}
