package io.livegate.core.hcl;

import java.util.ArrayDeque;
import java.util.Deque;

/**
 * Checks that brackets, braces, strings, comments and heredocs are balanced, and that every line
 * outside all brackets starts an attribute or a block. hcl4j's lexer accepts a file that ends
 * inside a block or holds a stray closing brace, and skips any text outside a block that it cannot
 * read, so a truncated or mangled terragrunt.hcl would otherwise read as a smaller, valid one and
 * silently lose dependencies.
 */
final class StructureCheck {
  private final String file;
  private final String text;
  private int pos;
  private int line = 1;

  /** Whether nothing but whitespace precedes {@code pos} on its line. */
  private boolean atLineStart = true;

  private final Deque<Open> stack = new ArrayDeque<>();

  private record Open(char closer, int line) {}

  private StructureCheck(String file, String text) {
    this.file = file;
    this.text = text;
  }

  static void verify(String file, String text) {
    new StructureCheck(file, text).run();
  }

  private void run() {
    if (text.startsWith("\uFEFF")) {
      pos++; // a byte order mark, as some editors write
    }
    while (pos < text.length()) {
      char c = text.charAt(pos);
      if (atLineStart && !Character.isWhitespace(c)) {
        atLineStart = false;
        if (stack.isEmpty()) {
          checkTopLevelStatement(c);
        }
      }
      if (c == '\n') {
        line++;
        pos++;
        atLineStart = true;
      } else if (c == '#' || (c == '/' && peek(1) == '/')) {
        skipLineComment();
      } else if (c == '/' && peek(1) == '*') {
        skipBlockComment();
      } else if (c == '"') {
        pos++;
        skipString();
      } else if (c == '<' && peek(1) == '<' && heredocStart()) {
        atLineStart = true;
      } else if (c == '{' || c == '[' || c == '(') {
        stack.push(new Open(closerOf(c), line));
        pos++;
      } else if (c == '}' || c == ']' || c == ')') {
        close(c);
        pos++;
      } else {
        pos++;
      }
    }
    if (!stack.isEmpty()) {
      Open open = stack.peek();
      throw new InvalidHcl(
          file,
          open.line(),
          "'" + openerOf(open.closer()) + "' is never closed (missing '" + open.closer() + "')");
    }
  }

  /**
   * Outside all brackets a newline ends a statement, so each line there must start a comment, an
   * attribute ({@code name = ...}) or a block whose labels and opening brace share its line ({@code
   * type "label" {}). hcl4j would skip anything else without a word, even a block header that has
   * lost its brace.
   */
  private void checkTopLevelStatement(char first) {
    if (first == '#' || first == '"' || (first == '/' && (peek(1) == '/' || peek(1) == '*'))) {
      return;
    }
    if (first == '}' || first == ']' || first == ')') {
      return; // a stray closer, which the bracket check reports
    }
    if (!isIdentifierStart(first)) {
      throw new InvalidHcl(
          file,
          line,
          "unexpected '" + first + "' outside any block; expected an attribute or a block");
    }
    int cursor = skipIdentifier(pos);
    String name = text.substring(pos, cursor);
    cursor = skipBlanks(cursor);
    if (charAt(cursor) == '=') {
      return;
    }
    while (charAt(cursor) == '"' || isIdentifierStart(charAt(cursor))) {
      cursor = charAt(cursor) == '"' ? skipLabel(cursor + 1) : skipIdentifier(cursor);
      if (cursor < 0) {
        return; // an unterminated label, which the string check reports
      }
      cursor = skipBlanks(cursor);
    }
    char next = charAt(cursor);
    if (next != '{') {
      throw new InvalidHcl(
          file,
          line,
          "expected '=' after '"
              + name
              + "', or labels and '{' to open a block, found "
              + (next == '\n' || next == '\r' || next == '\0'
                  ? "the end of the line"
                  : "'" + next + "'"));
    }
  }

  private int skipIdentifier(int cursor) {
    while (cursor < text.length() && isIdentifierChar(text.charAt(cursor))) {
      cursor++;
    }
    return cursor;
  }

  private int skipBlanks(int cursor) {
    while (charAt(cursor) == ' ' || charAt(cursor) == '\t') {
      cursor++;
    }
    return cursor;
  }

  /**
   * The position after a quoted label whose opening quote is just before {@code cursor}, or -1 when
   * the line ends first.
   */
  private int skipLabel(int cursor) {
    while (cursor < text.length() && text.charAt(cursor) != '"' && text.charAt(cursor) != '\n') {
      cursor += text.charAt(cursor) == '\\' ? 2 : 1;
    }
    return charAt(cursor) == '"' ? cursor + 1 : -1;
  }

  private char charAt(int at) {
    return at >= 0 && at < text.length() ? text.charAt(at) : '\0';
  }

  private void close(char c) {
    if (stack.isEmpty()) {
      throw new InvalidHcl(file, line, "unexpected '" + c + "' with nothing open");
    }
    Open open = stack.pop();
    if (open.closer() != c) {
      throw new InvalidHcl(
          file,
          line,
          "expected '"
              + open.closer()
              + "' to close '"
              + openerOf(open.closer())
              + "' from line "
              + open.line()
              + ", found '"
              + c
              + "'");
    }
  }

  /** Skips a quoted string whose opening quote was consumed, including nested interpolations. */
  private void skipString() {
    int startLine = line;
    while (pos < text.length()) {
      char c = text.charAt(pos);
      if (c == '\\') {
        pos += 2;
      } else if (c == '\n') {
        throw new InvalidHcl(
            file, startLine, "string is not terminated before the end of the line");
      } else if (c == '"') {
        pos++;
        return;
      } else if ((c == '$' || c == '%') && peek(1) == '{') {
        if (peek(-1) == c) {
          pos += 2; // "$${" and "%%{" are escapes for a literal "${" and "%{"
        } else {
          pos += 2;
          skipTemplateExpression();
        }
      } else {
        pos++;
      }
    }
    throw new InvalidHcl(file, startLine, "string is not terminated");
  }

  /** Skips the inside of "${ ... }", which may hold strings, brackets and newlines. */
  private void skipTemplateExpression() {
    int startLine = line;
    int depth = 0;
    while (pos < text.length()) {
      char c = text.charAt(pos);
      if (c == '\n') {
        line++;
        pos++;
      } else if (c == '"') {
        pos++;
        skipString();
      } else if (c == '{') {
        depth++;
        pos++;
      } else if (c == '}') {
        pos++;
        if (depth-- == 0) {
          return;
        }
      } else {
        pos++;
      }
    }
    throw new InvalidHcl(file, startLine, "'${' is never closed");
  }

  private boolean heredocStart() {
    int cursor = pos + 2;
    if (cursor < text.length() && text.charAt(cursor) == '-') {
      cursor++;
    }
    int nameStart = cursor;
    while (cursor < text.length() && isIdentifierChar(text.charAt(cursor))) {
      cursor++;
    }
    String marker = text.substring(nameStart, cursor);
    if (cursor < text.length() - 1 && text.charAt(cursor) == '\r') {
      cursor++; // a Windows line ending
    }
    if (marker.isEmpty() || cursor >= text.length() || text.charAt(cursor) != '\n') {
      return false;
    }
    int startLine = line;
    pos = cursor + 1;
    line++;
    while (pos < text.length()) {
      int end = text.indexOf('\n', pos);
      String current = end < 0 ? text.substring(pos) : text.substring(pos, end);
      pos = end < 0 ? text.length() : end + 1;
      if (current.strip().equals(marker)) {
        if (end >= 0) {
          line++;
        }
        return true;
      }
      line++;
    }
    throw new InvalidHcl(file, startLine, "heredoc <<" + marker + " is never terminated");
  }

  private void skipLineComment() {
    int end = text.indexOf('\n', pos);
    pos = end < 0 ? text.length() : end;
  }

  private void skipBlockComment() {
    int startLine = line;
    int end = text.indexOf("*/", pos + 2);
    if (end < 0) {
      throw new InvalidHcl(file, startLine, "comment '/*' is never closed");
    }
    for (int i = pos; i < end; i++) {
      if (text.charAt(i) == '\n') {
        line++;
      }
    }
    pos = end + 2;
  }

  private char peek(int offset) {
    return charAt(pos + offset);
  }

  private static boolean isIdentifierStart(char c) {
    return Character.isLetter(c) || c == '_';
  }

  private static boolean isIdentifierChar(char c) {
    return Character.isLetterOrDigit(c) || c == '_' || c == '-';
  }

  private static char closerOf(char opener) {
    return switch (opener) {
      case '{' -> '}';
      case '[' -> ']';
      default -> ')';
    };
  }

  private static char openerOf(char closer) {
    return switch (closer) {
      case '}' -> '{';
      case ']' -> '[';
      default -> '(';
    };
  }
}
