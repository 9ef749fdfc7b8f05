package io.livegate.core;

/** Escapes text for HTML bodies and attributes; every PR-controlled string goes through it. */
public final class Html {
  private Html() {}

  public static String escape(String text) {
    StringBuilder out = new StringBuilder(text.length() + 16);
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      switch (c) {
        case '&' -> out.append("&amp;");
        case '<' -> out.append("&lt;");
        case '>' -> out.append("&gt;");
        case '"' -> out.append("&quot;");
        case '\'' -> out.append("&#39;");
        default -> out.append(c);
      }
    }
    return out.toString();
  }

  /**
   * Terraform's plan or apply text for a {@code <pre>}: escaped, with each added, removed and
   * changed line in a span of class {@code add}, {@code del} or {@code chg}, so it reads as a
   * coloured diff.
   */
  public static String planDiff(String text) {
    StringBuilder out = new StringBuilder(text.length() + 64);
    String[] lines = text.split("\n", -1);
    for (int i = 0; i < lines.length; i++) {
      String line = lines[i];
      String trimmed = line.stripLeading();
      String kind =
          trimmed.startsWith("-/+") || trimmed.startsWith("+/-") || trimmed.startsWith("~")
              ? "chg"
              : trimmed.startsWith("+ ") || trimmed.equals("+")
                  ? "add"
                  : trimmed.startsWith("- ") ? "del" : null;
      if (kind == null) {
        out.append(escape(line));
      } else {
        out.append("<span class=\"")
            .append(kind)
            .append("\">")
            .append(escape(line))
            .append("</span>");
      }
      if (i < lines.length - 1) {
        out.append('\n');
      }
    }
    return out.toString();
  }
}
