package io.livegate.core;

import java.io.FilterWriter;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.Writer;

/**
 * Escapes text for a terminal or a log, as {@link Html} does for pages: a repository's strings
 * (unit paths, file names, what terraform printed) may hold control characters, and printed raw, a
 * newline forges a line of livegate's own, a carriage return overwrites one, and an escape sequence
 * (ESC, or its one-character C1 form) moves the cursor, retitles the window or clears the screen.
 * Each control character becomes a visible escape: {@code \n}, {@code \r}, {@code \t}, {@code \e},
 * else {@code \xHH} (C0 and DEL) or {@code \u009B}-style (C1, and the line and paragraph separators
 * U+2028 and U+2029, which some log viewers break lines at).
 */
public final class Printable {
  /** How far {@link #continued} indents a message's lines after its first. */
  private static final int CONTINUATION_INDENT = 4;

  private Printable() {}

  /** {@code text} on one line: every control character escaped, newlines too. */
  public static String escape(String text) {
    return escape(text, false);
  }

  /**
   * {@code text} as lines: every control character escaped but the newline and the tab, for text
   * that is several lines on purpose (a report) and whose repository strings were escaped with
   * {@link #escape} where a newline in them would forge a line.
   */
  public static String escapeExceptLines(String text) {
    return escape(text, true);
  }

  /**
   * {@code message} as lines of a log that is read line by line (a terminal, an ECS task's log in
   * CloudWatch), for a message that may span lines on purpose (a failure with terraform's error):
   * every control character escaped but the newline and the tab, and every line after the first
   * indented by {@value #CONTINUATION_INDENT} spaces. So no text inside a message, terraform's
   * output or a name from the repository, starts a line of its own that could pass for livegate's,
   * which start at the margin. A sink that writes each message as one record (a Lambda's log event)
   * escapes the newline too ({@link #escape}).
   */
  public static String continued(String message) {
    String escaped = escapeExceptLines(message);
    int end = escaped.endsWith("\n") ? escaped.length() - 1 : escaped.length();
    return escaped.substring(0, end).replace("\n", "\n" + " ".repeat(CONTINUATION_INDENT))
        + escaped.substring(end);
  }

  /**
   * {@code text} as lines inside a record of livegate's own, every line indented by {@value
   * #CONTINUATION_INDENT} spaces (an empty line stays empty) and every control character escaped
   * but the newline and the tab: what a command printed, under the header line livegate writes for
   * it at the margin, so that no line of the command's can pass for a header.
   */
  public static String indented(String text) {
    return escapeExceptLines(text).replaceAll("(?m)^(?=.)", " ".repeat(CONTINUATION_INDENT));
  }

  private static String escape(String text, boolean keepLines) {
    int first = 0;
    while (first < text.length() && !escaped(text.charAt(first), keepLines)) {
      first++;
    }
    if (first == text.length()) {
      return text;
    }
    StringBuilder out = new StringBuilder(text.length() + 16).append(text, 0, first);
    for (int i = first; i < text.length(); i++) {
      char c = text.charAt(i);
      if (!escaped(c, keepLines)) {
        out.append(c);
      } else {
        switch (c) {
          case '\n' -> out.append("\\n");
          case '\r' -> out.append("\\r");
          case '\t' -> out.append("\\t");
          case '\u001b' -> out.append("\\e");
          default ->
              out.append(
                  c < 0x80 ? String.format("\\x%02x", (int) c) : String.format("\\u%04X", (int) c));
        }
      }
    }
    return out.toString();
  }

  private static boolean escaped(char c, boolean keepLines) {
    if (keepLines && (c == '\n' || c == '\t')) {
      return false;
    }
    return c < 0x20 || (c >= 0x7f && c <= 0x9f) || c == '\u2028' || c == '\u2029';
  }

  /**
   * {@code out} with every control character written through it escaped but the newline and the tab
   * ({@link #escapeExceptLines}): what a command line or a task prints to its terminal or log.
   */
  public static PrintWriter writer(Writer out) {
    return new PrintWriter(new EscapingWriter(out), true);
  }

  /**
   * {@code out} as a log: escaped as {@link #writer} escapes, and each message printed with {@code
   * println} {@link #continued}, its lines after the first indented. What a task prints is all log
   * lines, so a message cannot forge one.
   */
  public static PrintWriter logWriter(Writer out) {
    return new PrintWriter(new EscapingWriter(out), true) {
      @Override
      public void println(String message) {
        synchronized (lock) {
          print(message == null ? null : continued(message));
          println();
        }
      }

      @Override
      public void println(Object message) {
        println(String.valueOf(message));
      }
    };
  }

  private static final class EscapingWriter extends FilterWriter {
    EscapingWriter(Writer out) {
      super(out);
    }

    @Override
    public void write(int c) throws IOException {
      out.write(escapeExceptLines(String.valueOf((char) c)));
    }

    @Override
    public void write(char[] buffer, int offset, int length) throws IOException {
      out.write(escapeExceptLines(new String(buffer, offset, length)));
    }

    @Override
    public void write(String text, int offset, int length) throws IOException {
      out.write(escapeExceptLines(text.substring(offset, offset + length)));
    }
  }
}
