package io.livegate.core.hcl;

import java.util.ArrayDeque;
import java.util.Deque;

/**
 * Checks that brackets, braces, strings, comments and heredocs are balanced. hcl4j's lexer accepts
 * a file that ends inside a block or holds a stray closing brace, so a truncated or mangled
 * terragrunt.hcl would otherwise read as a smaller, valid one and silently lose dependencies.
 */
final class StructureCheck {
  private final String file;
  private final String text;
  private int pos;
  private int line = 1;
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
    while (pos < text.length()) {
      char c = text.charAt(pos);
      if (c == '\n') {
        line++;
        pos++;
      } else if (c == '#' || (c == '/' && peek(1) == '/')) {
        skipLineComment();
      } else if (c == '/' && peek(1) == '*') {
        skipBlockComment();
      } else if (c == '"') {
        pos++;
        skipString();
      } else if (c == '<' && peek(1) == '<' && heredocStart()) {
        continue;
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
    if (cursor == nameStart || cursor >= text.length() || text.charAt(cursor) != '\n') {
      return false;
    }
    String marker = text.substring(nameStart, cursor);
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
    int at = pos + offset;
    return at >= 0 && at < text.length() ? text.charAt(at) : '\0';
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
