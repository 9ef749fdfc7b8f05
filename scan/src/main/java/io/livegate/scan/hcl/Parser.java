package io.livegate.scan.hcl;

import io.livegate.scan.hcl.Node.Position;
import java.math.BigDecimal;
import java.text.Normalizer;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A recursive-descent reader of the HCL native syntax (hclsyntax's spec.md): bodies of attributes
 * and blocks, and the whole expression grammar with the specified operator precedence, templates
 * with interpolations, directives and strip markers, and heredocs. It reads characters directly, so
 * the template and expression parts of the grammar share one cursor and every node gets its line
 * and column.
 *
 * <p>It is a little more lenient than hclsyntax in one place: an expression may continue on the
 * next line after a binary operator, {@code ?} or {@code :}. Terraform rejects a line that ends
 * there, so no valid file reads differently.
 */
final class Parser {
  /** Binary operators from the loosest to the tightest binding, as the specification lists them. */
  private static final List<List<String>> PRECEDENCE =
      List.of(
          List.of("||"),
          List.of("&&"),
          List.of("==", "!="),
          List.of("<", ">", "<=", ">="),
          List.of("+", "-"),
          List.of("*", "/", "%"));

  private final String file;
  private final String text;
  private int pos;
  private int line;
  private int lineStart;

  /** The end of the text being read: the whole file, or a heredoc's content. */
  private int limit;

  /** Whether newlines are insignificant here: inside parentheses, brackets and interpolations. */
  private boolean newlinesAreSpace;

  private Parser(String file, String text) {
    this.file = file;
    this.text = text;
    this.limit = text.length();
    this.line = 1;
    if (text.startsWith("\uFEFF")) {
      pos = 1; // a byte order mark, as some editors write
      lineStart = 1;
    }
  }

  static Block parseBody(String file, String text) {
    Parser parser = new Parser(file, text);
    return parser.body("", List.of(), 1, false);
  }

  /** Parses {@code text} as the content of a template, as {@code templatefile()} reads a file. */
  static Node parseTemplate(String file, String text) {
    Parser parser = new Parser(file, text);
    Position start = parser.position();
    return parser.template(parser.templatePieces(false, start), start);
  }

  // ---------------------------------------------------------------- bodies

  private Block body(String type, List<String> labels, int blockLine, boolean inBlock) {
    Map<String, Attribute> attributes = new LinkedHashMap<>();
    List<Block> blocks = new ArrayList<>();
    while (true) {
      skipSpaceAndNewlines();
      if (pos >= limit) {
        if (inBlock) {
          throw new InvalidHcl(
              file, blockLine, "'{' of block '" + type + "' is never closed (missing '}')");
        }
        break;
      }
      if (peek() == '}') {
        if (!inBlock) {
          throw error("unexpected '}' with nothing open");
        }
        pos++;
        break;
      }
      if (!isIdentifierStart(peek())) {
        throw error(
            "unexpected "
                + describeNext()
                + (inBlock ? "" : " outside any block")
                + "; expected an attribute or a block");
      }
      int itemLine = line;
      int itemColumn = column();
      String name = identifier();
      skipBlanks();
      if (peek() == '=' && peek(1) != '=') {
        pos++;
        skipBlanks();
        if (pos >= limit || peek() == '\n' || peek() == '}' || peek() == '\r') {
          throw new InvalidHcl(file, itemLine, itemColumn, "attribute '" + name + "' has no value");
        }
        Node value = expression();
        Attribute attribute = new Attribute(name, new Expression(file, value), itemLine);
        Attribute earlier = attributes.putIfAbsent(name, attribute);
        if (earlier != null) {
          throw new InvalidHcl(
              file,
              itemLine,
              itemColumn,
              "attribute '" + name + "' is already defined on line " + earlier.line());
        }
        endOfItem(inBlock, "attribute '" + name + "'");
      } else {
        List<String> blockLabels = blockLabels(name);
        pos++;
        skipBlanks();
        blocks.add(
            pos < limit && peek() != '\n' && peek() != '}'
                ? singleLineBlock(name, List.copyOf(blockLabels), itemLine)
                : body(name, List.copyOf(blockLabels), itemLine, true));
        endOfItem(inBlock, "block '" + name + "'");
      }
    }
    return new Block(
        type, labels, Collections.unmodifiableMap(attributes), List.copyOf(blocks), blockLine);
  }

  /**
   * A block with content on the line of its '{': at most one attribute and no block, closed on the
   * same line, as hclsyntax's parser.go requires of a single-line block (hashicorp/hcl specsuite
   * structure/blocks/single_oneline_invalid).
   */
  private Block singleLineBlock(String type, List<String> labels, int blockLine) {
    Map<String, Attribute> attributes = new LinkedHashMap<>();
    int itemLine = line;
    int itemColumn = column();
    if (!isIdentifierStart(peek())) {
      throw error("unexpected " + describeNext() + " in block '" + type + "'");
    }
    String name = identifier();
    skipBlanks();
    if (peek() != '=' || peek(1) == '=') {
      blockLabels(name);
      throw new InvalidHcl(
          file,
          itemLine,
          itemColumn,
          "a single-line block cannot hold a block ('" + name + "' in block '" + type + "')");
    }
    pos++;
    skipBlanks();
    if (pos >= limit || peek() == '\n' || peek() == '}') {
      throw new InvalidHcl(file, itemLine, itemColumn, "attribute '" + name + "' has no value");
    }
    attributes.put(name, new Attribute(name, new Expression(file, expression()), itemLine));
    skipBlanks();
    if (peek() == ',' || isIdentifierStart(peek())) {
      throw error("a single-line block holds one attribute only (block '" + type + "')");
    }
    if (peek() != '}') {
      throw error(
          "the '}' of single-line block '"
              + type
              + "' must be on the same line, found "
              + describeNext());
    }
    pos++;
    return new Block(type, labels, Collections.unmodifiableMap(attributes), List.of(), blockLine);
  }

  /** The labels after a block's type, up to its '{', which must follow. */
  private List<String> blockLabels(String type) {
    List<String> labels = new ArrayList<>();
    while (peek() == '"' || isIdentifierStart(peek())) {
      labels.add(peek() == '"' ? label() : identifier());
      skipBlanks();
    }
    if (peek() != '{') {
      throw error(
          "expected '=' after '"
              + type
              + "', or labels and '{' to open a block, found "
              + describeNext());
    }
    return labels;
  }

  /** After an attribute or a block: the end of the line, the file, or a one-line block. */
  private void endOfItem(boolean inBlock, String item) {
    skipBlanks();
    if (pos >= limit || peek() == '\n' || (inBlock && peek() == '}')) {
      return;
    }
    throw error("unexpected " + describeNext() + " after " + item + "; expected a new line");
  }

  private String label() {
    int labelLine = line;
    int labelColumn = column();
    Node node = quoted();
    if (node instanceof Node.Literal literal && literal.value() instanceof String text) {
      return text;
    }
    throw new InvalidHcl(
        file, labelLine, labelColumn, "a block label cannot hold an interpolation or directive");
  }

  // ---------------------------------------------------------------- expressions

  Node expression() {
    Node condition = binary(0);
    skipSpace();
    if (peek() != '?') {
      return condition;
    }
    Position at = position();
    pos++;
    afterOperator();
    Node whenTrue = expression();
    skipSpace();
    expect(':', "conditional expression");
    afterOperator();
    Node whenFalse = expression();
    return new Node.Conditional(condition, whenTrue, whenFalse, at(condition, at));
  }

  private Node binary(int level) {
    if (level == PRECEDENCE.size()) {
      return unary();
    }
    Node left = binary(level + 1);
    while (true) {
      skipSpace();
      String operator = binaryOperator(PRECEDENCE.get(level));
      if (operator == null) {
        return left;
      }
      Position at = position();
      pos += operator.length();
      afterOperator();
      Node right = binary(level + 1);
      left = new Node.Binary(operator, left, right, at(left, at));
    }
  }

  /** The operator of this level at the cursor, or null. */
  private String binaryOperator(List<String> operators) {
    if (pos >= limit) {
      return null;
    }
    char c = peek();
    char next = peek(1);
    String found =
        switch (c) {
          case '|' -> next == '|' ? "||" : null;
          case '&' -> next == '&' ? "&&" : null;
          case '=' -> next == '=' ? "==" : null;
          case '!' -> next == '=' ? "!=" : null;
          case '<' -> next == '=' ? "<=" : next == '<' ? null : "<";
          case '>' -> next == '=' ? ">=" : ">";
          case '+' -> "+";
          case '-' -> "-";
          case '*' -> "*";
          case '/' -> next == '/' || next == '*' ? null : "/";
          case '%' -> next == '{' ? null : "%";
          default -> null;
        };
    return found != null && operators.contains(found) ? found : null;
  }

  private Node unary() {
    skipSpace();
    char c = peek();
    if ((c == '-' || c == '!') && peek(1) != '=') {
      Position at = position();
      pos++;
      Node operand = unary();
      return new Node.Unary(String.valueOf(c), operand, at);
    }
    return postfix(term());
  }

  private Node term() {
    skipSpace();
    if (pos >= limit) {
      throw error("expected an expression, found the end of the file");
    }
    Position at = position();
    char c = peek();
    if (isDigit(c)) {
      return number(at);
    }
    if (c == '"') {
      return quoted();
    }
    if (c == '<' && peek(1) == '<') {
      return heredoc(at);
    }
    if (c == '(') {
      pos++;
      boolean saved = newlinesAreSpace;
      newlinesAreSpace = true;
      Node inner = expression();
      skipSpace();
      expect(')', "parenthesised expression");
      newlinesAreSpace = saved;
      return inner;
    }
    if (c == '[') {
      return tuple(at);
    }
    if (c == '{') {
      return object(at);
    }
    if (isIdentifierStart(c)) {
      String name = identifier();
      switch (name) {
        case "true":
          return new Node.Literal(Boolean.TRUE, at);
        case "false":
          return new Node.Literal(Boolean.FALSE, at);
        case "null":
          return new Node.Literal(null, at);
        default:
          break;
      }
      while (peek() == ':' && peek(1) == ':' && isIdentifierStart(peek(2))) {
        pos += 2;
        name = name + "::" + identifier(); // a provider function, provider::aws::arn_parse
      }
      int afterName = pos;
      skipBlanks();
      if (peek() == '(') {
        return call(name, at);
      }
      pos = afterName;
      return new Node.Variable(name, at);
    }
    throw error("expected an expression, found " + describeNext());
  }

  private Node number(Position at) {
    int start = pos;
    while (isDigit(peek())) {
      pos++;
    }
    if (peek() == '.' && isDigit(peek(1))) {
      pos++;
      while (isDigit(peek())) {
        pos++;
      }
    }
    if ((peek() == 'e' || peek() == 'E')
        && (isDigit(peek(1)) || ((peek(1) == '+' || peek(1) == '-') && isDigit(peek(2))))) {
      pos += 2;
      while (isDigit(peek())) {
        pos++;
      }
    }
    return new Node.Literal(new BigDecimal(text.substring(start, pos)), at);
  }

  private Node call(String name, Position at) {
    pos++; // (
    boolean saved = newlinesAreSpace;
    newlinesAreSpace = true;
    List<Node> arguments = new ArrayList<>();
    boolean expand = false;
    skipSpace();
    while (peek() != ')') {
      if (pos >= limit) {
        throw new InvalidHcl(
            file, at.line(), at.column(), "call to " + name + "() is never closed (missing ')')");
      }
      arguments.add(expression());
      skipSpace();
      if (peek() == '.' && peek(1) == '.' && peek(2) == '.') {
        pos += 3;
        expand = true;
        skipSpace();
        if (peek() == ',') {
          pos++;
          skipSpace();
        }
        if (peek() != ')') {
          throw error("'...' may only follow the last argument of " + name + "()");
        }
        break;
      }
      if (peek() == ',') {
        pos++;
        skipSpace();
      } else if (peek() != ')') {
        throw error(
            "expected ',' or ')' in the arguments of " + name + "(), found " + describeNext());
      }
    }
    pos++; // )
    newlinesAreSpace = saved;
    return new Node.Call(name, arguments, expand, at);
  }

  private Node tuple(Position at) {
    pos++; // [
    boolean saved = newlinesAreSpace;
    newlinesAreSpace = true;
    skipSpace();
    if (atKeyword("for")) {
      Node result = forExpression(at, false);
      newlinesAreSpace = saved;
      return result;
    }
    List<Node> items = new ArrayList<>();
    while (peek() != ']') {
      if (pos >= limit) {
        throw new InvalidHcl(file, at.line(), at.column(), "'[' is never closed (missing ']')");
      }
      items.add(expression());
      skipSpace();
      if (peek() == ',') {
        pos++;
        skipSpace();
      } else if (peek() != ']') {
        throw error("expected ',' or ']' in a tuple, found " + describeNext());
      }
    }
    pos++;
    newlinesAreSpace = saved;
    return new Node.Tuple(items, at);
  }

  private Node object(Position at) {
    pos++; // {
    boolean saved = newlinesAreSpace;
    newlinesAreSpace = true;
    skipSpace();
    if (atKeyword("for") && isIdentifierStart(afterSpaces(3))) {
      Node result = forExpression(at, true);
      newlinesAreSpace = saved;
      return result;
    }
    newlinesAreSpace = false;
    List<Node.Item> items = new ArrayList<>();
    while (true) {
      skipSpaceAndNewlines();
      if (peek() == '}') {
        break;
      }
      if (pos >= limit) {
        throw new InvalidHcl(file, at.line(), at.column(), "'{' is never closed (missing '}')");
      }
      Node key = objectKey();
      skipBlanks();
      if (peek() == '=' && peek(1) != '=' && peek(1) != '>' || peek() == ':') {
        pos++;
      } else {
        throw error("expected '=' or ':' after an object key, found " + describeNext());
      }
      skipBlanks();
      if (pos >= limit || peek() == '\n' || peek() == '}' || peek() == ',') {
        throw error("object key " + describeKey(key) + " has no value");
      }
      items.add(new Node.Item(key, expression()));
      skipBlanks();
      if (peek() == ',') {
        pos++;
      } else if (peek() != '\n' && peek() != '}' && pos < limit) {
        throw error(
            "expected ',', a new line or '}' after an object item, found " + describeNext());
      }
    }
    pos++; // }
    newlinesAreSpace = saved;
    return new Node.ObjectCons(items, at);
  }

  /** A bare identifier followed by '=' or ':' is the key's name; anything else is an expression. */
  private Node objectKey() {
    Position at = position();
    if (isIdentifierStart(peek())) {
      int start = pos;
      int startLine = line;
      int startLineStart = lineStart;
      String name = identifier();
      skipBlanks();
      if ((peek() == '=' && peek(1) != '=') || (peek() == ':' && peek(1) != ':')) {
        return new Node.Literal(name, at);
      }
      pos = start;
      line = startLine;
      lineStart = startLineStart;
    }
    return expression();
  }

  private static String describeKey(Node key) {
    return key instanceof Node.Literal literal ? "'" + literal.value() + "'" : "expression";
  }

  /** What follows {@code for} in a for expression and a {@code %{for}} directive alike. */
  private record ForHeader(String keyVar, String valueVar, Node collection) {}

  /**
   * {@code KEY, VALUE in COLLECTION} or {@code VALUE in COLLECTION}, after the {@code for}.
   *
   * @param where what holds it, for the message
   */
  private ForHeader forHeader(String where) {
    skipSpace();
    String first = requireIdentifier("a symbol name after 'for'");
    String second = null;
    skipSpace();
    if (peek() == ',') {
      pos++;
      skipSpace();
      second = requireIdentifier("a second symbol name after ','");
      skipSpace();
    }
    if (!atKeyword("in")) {
      throw error("expected 'in' in " + where + ", found " + describeNext());
    }
    pos += 2;
    Node collection = expression();
    return second == null
        ? new ForHeader(null, first, collection)
        : new ForHeader(first, second, collection);
  }

  private Node forExpression(Position at, boolean object) {
    pos += 3; // for
    ForHeader header = forHeader("a for expression");
    skipSpace();
    expect(':', "for expression");
    Node key = null;
    Node value = expression();
    boolean grouping = false;
    skipSpace();
    if (object) {
      if (!(peek() == '=' && peek(1) == '>')) {
        throw error("expected '=>' in an object for expression, found " + describeNext());
      }
      pos += 2;
      key = value;
      value = expression();
      skipSpace();
      if (peek() == '.' && peek(1) == '.' && peek(2) == '.') {
        pos += 3;
        grouping = true;
        skipSpace();
      }
    }
    Node condition = null;
    if (atKeyword("if")) {
      pos += 2;
      condition = expression();
      skipSpace();
    }
    expect(object ? '}' : ']', "for expression");
    return new Node.For(
        header.keyVar(),
        header.valueVar(),
        header.collection(),
        key,
        value,
        grouping,
        condition,
        at);
  }

  private Node postfix(Node target) {
    while (true) {
      int save = pos;
      int saveLine = line;
      int saveLineStart = lineStart;
      skipSpace();
      Position at = target.position(); // a traversal is reported where it starts
      if (peek() == '[') {
        if (peek(1) == '*' && afterSpaces(2) == ']') {
          pos = skipSpacesFrom(pos + 2) + 1;
          target = splat(target, true, at);
          continue;
        }
        pos++;
        boolean saved = newlinesAreSpace;
        newlinesAreSpace = true;
        Node key = expression();
        skipSpace();
        expect(']', "index");
        newlinesAreSpace = saved;
        target = new Node.Index(target, key, at);
      } else if (peek() == '.' && peek(1) != '.') {
        pos++;
        skipSpace();
        if (peek() == '*') {
          pos++;
          target = splat(target, false, at);
        } else if (isDigit(peek())) {
          Position keyAt = position();
          int start = pos;
          while (isDigit(peek())) {
            pos++;
          }
          Node key = new Node.Literal(new BigDecimal(text.substring(start, pos)), keyAt);
          target = new Node.Index(target, key, at);
        } else {
          target = new Node.GetAttr(target, requireIdentifier("an attribute name after '.'"), at);
        }
      } else {
        pos = save;
        line = saveLine;
        lineStart = saveLineStart;
        return target;
      }
    }
  }

  /**
   * The traversal after {@code [*]} (attributes and indexes) or {@code .*} (attributes only),
   * applied to each element.
   */
  private Node splat(Node source, boolean full, Position at) {
    Node each = new Node.SplatItem(at);
    while (true) {
      int save = pos;
      int saveLine = line;
      int saveLineStart = lineStart;
      skipSpace();
      Position stepAt = position();
      if (peek() == '.' && peek(1) != '.' && peek(1) != '*') {
        pos++;
        skipSpace();
        if (isDigit(peek()) && full) {
          Position keyAt = position();
          int start = pos;
          while (isDigit(peek())) {
            pos++;
          }
          each =
              new Node.Index(
                  each,
                  new Node.Literal(new BigDecimal(text.substring(start, pos)), stepAt),
                  stepAt);
        } else {
          each = new Node.GetAttr(each, requireIdentifier("an attribute name after '.'"), stepAt);
        }
      } else if (full && peek() == '[' && !(peek(1) == '*')) {
        pos++;
        boolean saved = newlinesAreSpace;
        newlinesAreSpace = true;
        Node key = expression();
        skipSpace();
        expect(']', "index");
        newlinesAreSpace = saved;
        each = new Node.Index(each, key, stepAt);
      } else {
        pos = save;
        line = saveLine;
        lineStart = saveLineStart;
        return new Node.Splat(source, each, full, at);
      }
    }
  }

  // ---------------------------------------------------------------- templates

  /** A quoted template; one with literal text only is a string literal. */
  private Node quoted() {
    Position at = position();
    pos++; // "
    List<Object> pieces = templatePieces(true, at);
    return template(pieces, at);
  }

  private Node heredoc(Position at) {
    pos += 2;
    boolean flush = peek() == '-';
    if (flush) {
      pos++;
    }
    if (!isIdentifierStart(peek())) {
      throw error("expected a heredoc marker after '<<', found " + describeNext());
    }
    String marker = identifier();
    if (peek() == '\r') {
      pos++;
    }
    if (peek() != '\n') {
      throw error("expected a new line after the heredoc marker <<" + marker);
    }
    pos++;
    newLine();
    int contentStart = pos;
    int cursor = pos;
    int end = -1;
    int after = -1;
    while (cursor < limit) {
      int lineEnd = text.indexOf('\n', cursor);
      if (lineEnd < 0 || lineEnd > limit) {
        lineEnd = limit;
      }
      if (text.substring(cursor, lineEnd).strip().equals(marker)) {
        end = cursor;
        after = lineEnd;
        break;
      }
      cursor = lineEnd + 1;
    }
    if (end < 0) {
      throw new InvalidHcl(
          file, at.line(), at.column(), "heredoc <<" + marker + " is never terminated");
    }
    int savedLimit = limit;
    limit = end;
    List<Object> pieces;
    if (flush) {
      Parser inner = new Parser(file, unindent(text.substring(contentStart, end)));
      inner.line = line;
      pieces = inner.templatePieces(false, at);
      for (int i = contentStart; i < end; i++) {
        if (text.charAt(i) == '\n') {
          newLine(i + 1);
        }
      }
      pos = end;
    } else {
      pieces = templatePieces(false, at);
    }
    limit = savedLimit;
    pos = after;
    return template(pieces, at);
  }

  /**
   * The content of a {@code <<-} heredoc with the smallest indentation of its non-blank lines
   * removed from every line, as hclsyntax does.
   */
  private static String unindent(String content) {
    String[] lines = content.split("\n", -1);
    int indent = Integer.MAX_VALUE;
    for (String candidate : lines) {
      if (candidate.isBlank()) {
        continue;
      }
      int spaces = 0;
      while (spaces < candidate.length() && Character.isWhitespace(candidate.charAt(spaces))) {
        spaces++;
      }
      indent = Math.min(indent, spaces);
    }
    if (indent == Integer.MAX_VALUE) {
      indent = 0;
    }
    StringBuilder out = new StringBuilder(content.length());
    for (int i = 0; i < lines.length; i++) {
      String current = lines[i];
      int cut = 0;
      while (cut < indent
          && cut < current.length()
          && Character.isWhitespace(current.charAt(cut))) {
        cut++;
      }
      out.append(current, cut, current.length());
      if (i < lines.length - 1) {
        out.append('\n');
      }
    }
    return out.toString();
  }

  /** A template's pieces: literal text, interpolations and directive markers, in order. */
  private record Directive(
      String keyword, Node expression, String key, String value, Position at) {}

  /** A piece that strips the whitespace beside it: its {@code ~} markers. */
  private record Stripped(Object piece, boolean left, boolean right) {}

  private List<Object> templatePieces(boolean quoted, Position start) {
    List<Object> pieces = new ArrayList<>();
    StringBuilder literal = new StringBuilder();
    while (true) {
      if (pos >= limit) {
        if (quoted) {
          throw new InvalidHcl(file, start.line(), start.column(), "string is not terminated");
        }
        break;
      }
      char c = peek();
      if (quoted && c == '"') {
        pos++;
        break;
      }
      if (quoted && c == '\n') {
        throw new InvalidHcl(
            file,
            start.line(),
            start.column(),
            "string is not terminated before the end of the line");
      }
      if (quoted && c == '\\') {
        escape(literal);
        continue;
      }
      if ((c == '$' || c == '%') && peek(1) == c && peek(2) == '{') {
        literal.append(c).append('{'); // "$${" and "%%{" stand for a literal "${" and "%{"
        pos += 3;
        continue;
      }
      if ((c == '$' || c == '%') && peek(1) == '{') {
        if (literal.length() > 0) {
          pieces.add(nfc(literal));
          literal.setLength(0);
        }
        pieces.add(c == '$' ? interpolation() : directive());
        continue;
      }
      if (c == '\n') {
        pos++;
        newLine();
        literal.append('\n');
        continue;
      }
      literal.append(c);
      pos++;
    }
    if (literal.length() > 0) {
      pieces.add(nfc(literal));
    }
    return pieces;
  }

  /**
   * Literal template text in Unicode normal form C, as hclsyntax normalises string literals
   * (hashicorp/hcl specsuite expressions/primitive_literals, string_unicode_nonnorm). ASCII text,
   * nearly all of a config, is returned as it is without asking the normaliser.
   */
  private static String nfc(CharSequence literal) {
    String text = literal.toString();
    for (int i = 0; i < text.length(); i++) {
      if (text.charAt(i) >= 0x80) {
        return Normalizer.normalize(text, Normalizer.Form.NFC);
      }
    }
    return text;
  }

  private void escape(StringBuilder literal) {
    Position at = position();
    char kind = peek(1);
    pos += 2;
    switch (kind) {
      case 'n' -> literal.append('\n');
      case 'r' -> literal.append('\r');
      case 't' -> literal.append('\t');
      case '"' -> literal.append('"');
      case '\\' -> literal.append('\\');
      case 'u', 'U' -> {
        int digits = kind == 'u' ? 4 : 8;
        int start = pos;
        for (int i = 0; i < digits; i++) {
          if (Character.digit(peek(), 16) < 0) {
            throw new InvalidHcl(
                file,
                at.line(),
                at.column(),
                "the escape \\" + kind + " needs " + digits + " hexadecimal digits");
          }
          pos++;
        }
        int codePoint = Integer.parseInt(text.substring(start, pos), 16);
        if (!Character.isValidCodePoint(codePoint)) {
          throw new InvalidHcl(
              file,
              at.line(),
              at.column(),
              "\\" + kind + text.substring(start, pos) + " is not a unicode character");
        }
        literal.appendCodePoint(codePoint);
      }
      default -> {
        pos -= 2;
        throw error("invalid escape sequence '\\" + kind + "' in a string");
      }
    }
  }

  private Stripped interpolation() {
    Position at = position();
    pos += 2; // ${
    boolean left = peek() == '~';
    if (left) {
      pos++;
    }
    boolean saved = newlinesAreSpace;
    newlinesAreSpace = true;
    int savedLimit = limit;
    limit = text.length();
    Node expression = expression();
    skipSpace();
    boolean right = peek() == '~';
    if (right) {
      pos++;
    }
    if (peek() != '}') {
      throw new InvalidHcl(
          file, at.line(), at.column(), "expected '}' to close '${', found " + describeNext());
    }
    pos++;
    limit = savedLimit;
    newlinesAreSpace = saved;
    return new Stripped(expression, left, right);
  }

  private Stripped directive() {
    Position at = position();
    pos += 2; // %{
    boolean left = peek() == '~';
    if (left) {
      pos++;
    }
    boolean saved = newlinesAreSpace;
    newlinesAreSpace = true;
    int savedLimit = limit;
    limit = text.length();
    skipSpace();
    String keyword = isIdentifierStart(peek()) ? identifier() : "";
    Directive directive;
    switch (keyword) {
      case "if" -> directive = new Directive("if", expression(), null, null, at);
      case "else", "endif", "endfor" -> directive = new Directive(keyword, null, null, null, at);
      case "for" -> {
        ForHeader header = forHeader("a %{for} directive");
        directive =
            new Directive("for", header.collection(), header.keyVar(), header.valueVar(), at);
      }
      default ->
          throw new InvalidHcl(
              file,
              at.line(),
              at.column(),
              "expected if, else, endif, for or endfor after '%{', found '" + keyword + "'");
    }
    skipSpace();
    boolean right = peek() == '~';
    if (right) {
      pos++;
    }
    if (peek() != '}') {
      throw error(
          "expected '}' to close the %{" + keyword + "} directive, found " + describeNext());
    }
    pos++;
    limit = savedLimit;
    newlinesAreSpace = saved;
    return new Stripped(directive, left, right);
  }

  /** Applies strip markers, then nests directives into a tree. */
  private Node template(List<Object> pieces, Position at) {
    List<Object> stripped = new ArrayList<>(pieces.size());
    for (int i = 0; i < pieces.size(); i++) {
      Object piece = pieces.get(i);
      if (piece instanceof String literal) {
        if (i > 0 && pieces.get(i - 1) instanceof Stripped before && before.right()) {
          literal = literal.stripLeading();
        }
        if (i + 1 < pieces.size() && pieces.get(i + 1) instanceof Stripped after && after.left()) {
          literal = literal.stripTrailing();
        }
        if (!literal.isEmpty()) {
          stripped.add(literal);
        }
      } else {
        stripped.add(((Stripped) piece).piece());
      }
    }
    int[] cursor = {0};
    List<Node> parts = templateParts(stripped, cursor, at, null);
    if (parts.isEmpty()) {
      return new Node.Literal("", at);
    }
    if (parts.size() == 1
        && parts.get(0) instanceof Node.Literal literal
        && literal.value() instanceof String) {
      return new Node.Literal(literal.value(), at);
    }
    return new Node.Template(parts, at);
  }

  /** Template parts up to the directive that closes {@code open} (or the end when null). */
  private List<Node> templateParts(List<Object> pieces, int[] cursor, Position at, Directive open) {
    List<Node> parts = new ArrayList<>();
    while (cursor[0] < pieces.size()) {
      Object piece = pieces.get(cursor[0]);
      if (piece instanceof String literal) {
        cursor[0]++;
        parts.add(new Node.Literal(literal, at));
      } else if (piece instanceof Node expression) {
        cursor[0]++;
        parts.add(expression);
      } else {
        Directive directive = (Directive) piece;
        switch (directive.keyword()) {
          case "if" -> {
            cursor[0]++;
            List<Node> then = templateParts(pieces, cursor, at, directive);
            List<Node> otherwise = List.of();
            Directive closing = (Directive) pieces.get(cursor[0] - 1);
            if (closing.keyword().equals("else")) {
              otherwise = templateParts(pieces, cursor, at, closing);
            }
            parts.add(new Node.TemplateIf(directive.expression(), then, otherwise, directive.at()));
          }
          case "for" -> {
            cursor[0]++;
            List<Node> body = templateParts(pieces, cursor, at, directive);
            parts.add(
                new Node.TemplateFor(
                    directive.key(),
                    directive.value(),
                    directive.expression(),
                    body,
                    directive.at()));
          }
          default -> {
            String expected =
                open == null
                    ? null
                    : open.keyword().equals("for")
                        ? "endfor"
                        : open.keyword().equals("if") ? "else|endif" : "endif";
            if (expected == null || !List.of(expected.split("\\|")).contains(directive.keyword())) {
              throw new InvalidHcl(
                  file,
                  directive.at().line(),
                  directive.at().column(),
                  "unexpected %{"
                      + directive.keyword()
                      + "}"
                      + (open == null
                          ? " with no %{if} or %{for} open"
                          : " in the %{" + open.keyword() + "} from line " + open.at().line()));
            }
            cursor[0]++;
            return parts;
          }
        }
      }
    }
    if (open != null) {
      throw new InvalidHcl(
          file,
          open.at().line(),
          open.at().column(),
          "%{"
              + open.keyword()
              + "} is never closed (missing %{"
              + (open.keyword().equals("for") ? "endfor" : "endif")
              + "})");
    }
    return parts;
  }

  // ---------------------------------------------------------------- characters

  private char peek() {
    return pos < limit ? text.charAt(pos) : '\0';
  }

  private char peek(int offset) {
    int at = pos + offset;
    return at < limit ? text.charAt(at) : '\0';
  }

  private int skipSpacesFrom(int from) {
    int cursor = from;
    while (cursor < limit && (text.charAt(cursor) == ' ' || text.charAt(cursor) == '\t')) {
      cursor++;
    }
    return cursor;
  }

  private char afterSpaces(int offset) {
    int cursor = skipSpacesFrom(pos + offset);
    return cursor < limit ? text.charAt(cursor) : '\0';
  }

  private int column() {
    return pos - lineStart + 1;
  }

  private Position position() {
    return new Position(line, column());
  }

  /** A binary or conditional node starts where its left operand starts. */
  private static Position at(Node left, Position operator) {
    return left.position();
  }

  private void newLine() {
    newLine(pos);
  }

  private void newLine(int start) {
    line++;
    lineStart = start;
  }

  /** Spaces, tabs and comments; newlines too where they are insignificant. */
  private void skipSpace() {
    if (newlinesAreSpace) {
      skipSpaceAndNewlines();
    } else {
      skipBlanks();
    }
  }

  /**
   * After an operator a line break is not space outside brackets: hclsyntax's parser reads the
   * operand with newlines significant there (parser.go parseBinaryOps and parseTernaryConditional
   * push no newline-ignoring scope), so {@code a = b ?} at the end of a line ends the attribute and
   * is an error, as is {@code +}, {@code &&} or {@code :} there.
   */
  private void afterOperator() {
    skipSpace();
  }

  private void skipBlanks() {
    while (pos < limit) {
      char c = text.charAt(pos);
      if (c == ' ' || c == '\t' || (c == '\r' && peek(1) == '\n')) {
        pos++;
      } else if (c == '#' || (c == '/' && peek(1) == '/')) {
        while (pos < limit && text.charAt(pos) != '\n') {
          pos++;
        }
      } else if (c == '/' && peek(1) == '*') {
        blockComment();
      } else {
        return;
      }
    }
  }

  private void skipSpaceAndNewlines() {
    while (true) {
      skipBlanks();
      if (pos < limit && text.charAt(pos) == '\n') {
        pos++;
        newLine();
      } else {
        return;
      }
    }
  }

  private void blockComment() {
    int startLine = line;
    int startColumn = column();
    int end = text.indexOf("*/", pos + 2);
    if (end < 0 || end >= limit) {
      throw new InvalidHcl(file, startLine, startColumn, "comment '/*' is never closed");
    }
    for (int i = pos; i < end; i++) {
      if (text.charAt(i) == '\n') {
        newLine(i + 1);
      }
    }
    pos = end + 2;
  }

  private String identifier() {
    int start = pos;
    pos++;
    while (pos < limit && isIdentifierPart(text.charAt(pos))) {
      pos++;
    }
    return text.substring(start, pos);
  }

  private String requireIdentifier(String what) {
    if (!isIdentifierStart(peek())) {
      throw error("expected " + what + ", found " + describeNext());
    }
    return identifier();
  }

  private boolean atKeyword(String keyword) {
    return text.startsWith(keyword, pos)
        && pos + keyword.length() <= limit
        && !isIdentifierPart(peek(keyword.length()));
  }

  private void expect(char closer, String construct) {
    if (peek() != closer) {
      throw error("expected '" + closer + "' in a " + construct + ", found " + describeNext());
    }
    pos++;
  }

  private String describeNext() {
    if (pos >= limit) {
      return "the end of the file";
    }
    char c = peek();
    if (c == '\n' || c == '\r') {
      return "the end of the line";
    }
    if (isIdentifierStart(c)) {
      int end = pos;
      while (end < limit && isIdentifierPart(text.charAt(end))) {
        end++;
      }
      return "'" + text.substring(pos, end) + "'";
    }
    return "'" + new String(Character.toChars(text.codePointAt(pos))) + "'";
  }

  private InvalidHcl error(String problem) {
    return new InvalidHcl(file, line, column(), problem);
  }

  private static boolean isDigit(char c) {
    return c >= '0' && c <= '9';
  }

  static boolean isIdentifierStart(char c) {
    return Character.isLetter(c) || c == '_';
  }

  static boolean isIdentifierPart(char c) {
    return Character.isLetterOrDigit(c) || c == '_' || c == '-';
  }
}
