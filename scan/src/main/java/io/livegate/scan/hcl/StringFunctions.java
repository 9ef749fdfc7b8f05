package io.livegate.scan.hcl;

import static io.livegate.scan.hcl.StandardFunctions.VARIADIC;
import static io.livegate.scan.hcl.StandardFunctions.define;

import io.livegate.scan.hcl.StandardFunctions.Definition;
import io.livegate.scan.hcl.Values.ValueError;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/** Terraform's string functions. Lengths and offsets count characters (code points). */
final class StringFunctions {
  private static final Pattern NAMED_GROUP = Pattern.compile("\\(\\?P<");
  private static final Pattern GROUP_NAME = Pattern.compile("\\(\\?<([a-zA-Z][a-zA-Z0-9]*)>");

  private StringFunctions() {}

  static void register(Map<String, Definition> into) {
    define(into, "lower", 1, args -> str(args, 0).toLowerCase(Locale.ROOT));
    define(into, "upper", 1, args -> str(args, 0).toUpperCase(Locale.ROOT));
    define(into, "title", 1, args -> title(str(args, 0)));
    define(into, "trimspace", 1, args -> str(args, 0).strip());
    define(into, "chomp", 1, args -> str(args, 0).replaceFirst("(\\r?\\n)+$", ""));
    define(into, "trim", 2, args -> trim(str(args, 0), str(args, 1)));
    define(
        into,
        "trimprefix",
        2,
        args -> {
          String value = str(args, 0);
          String prefix = str(args, 1);
          return value.startsWith(prefix) ? value.substring(prefix.length()) : value;
        });
    define(
        into,
        "trimsuffix",
        2,
        args -> {
          String value = str(args, 0);
          String suffix = str(args, 1);
          return value.endsWith(suffix)
              ? value.substring(0, value.length() - suffix.length())
              : value;
        });
    define(into, "startswith", 2, args -> str(args, 0).startsWith(str(args, 1)));
    define(into, "endswith", 2, args -> str(args, 0).endsWith(str(args, 1)));
    define(into, "strcontains", 2, args -> str(args, 0).contains(str(args, 1)));
    define(into, "strrev", 1, args -> reverse(str(args, 0)));
    define(into, "substr", 3, args -> substr(str(args, 0), args.get(1), args.get(2)));
    define(into, "indent", 2, args -> indent(Values.integer(args.get(0)), str(args, 1)));
    define(into, "replace", 3, args -> replace(str(args, 0), str(args, 1), str(args, 2)));
    define(
        into,
        "split",
        2,
        args -> {
          String separator = str(args, 0);
          String value = str(args, 1);
          if (separator.isEmpty()) {
            List<String> characters = new ArrayList<>();
            value.codePoints().forEach(c -> characters.add(new String(Character.toChars(c))));
            return List.copyOf(characters);
          }
          return List.of(value.split(Pattern.quote(separator), -1));
        });
    define(into, "join", 2, VARIADIC, StringFunctions::join);
    define(into, "format", 1, VARIADIC, args -> Format.format(str(args, 0), rest(args)));
    define(into, "formatlist", 1, VARIADIC, StringFunctions::formatlist);
    define(into, "regex", 2, args -> regex(str(args, 0), str(args, 1)));
    define(into, "regexall", 2, args -> regexall(str(args, 0), str(args, 1)));
  }

  static String str(List<Object> args, int index) {
    String value = Values.string(args.get(index));
    if (value == null) {
      throw new ValueError("argument " + (index + 1) + " must not be null");
    }
    return value;
  }

  private static List<Object> rest(List<Object> args) {
    return args.subList(1, args.size());
  }

  /** Go's strings.Title: the first letter of each word upper-cased. */
  private static String title(String value) {
    StringBuilder out = new StringBuilder(value.length());
    boolean wordStart = true;
    for (int i = 0; i < value.length(); ) {
      int c = value.codePointAt(i);
      out.appendCodePoint(wordStart ? Character.toTitleCase(c) : c);
      wordStart = !Character.isLetterOrDigit(c) && c != '_' && c != '\'';
      i += Character.charCount(c);
    }
    return out.toString();
  }

  private static String trim(String value, String characters) {
    int start = 0;
    int end = value.length();
    while (start < end && characters.indexOf(value.codePointAt(start)) >= 0) {
      start += Character.charCount(value.codePointAt(start));
    }
    while (end > start && characters.indexOf(value.codePointBefore(end)) >= 0) {
      end -= Character.charCount(value.codePointBefore(end));
    }
    return value.substring(start, end);
  }

  private static String substr(String value, Object offsetArgument, Object lengthArgument) {
    List<String> characters = graphemes(value);
    int offset = Values.integer(offsetArgument);
    int length = Values.integer(lengthArgument);
    if (offset < 0) {
      offset = Math.max(0, characters.size() + offset);
    }
    if (offset > characters.size()) {
      throw new ValueError("offset " + offset + " is beyond the end of the string");
    }
    int end = length < 0 ? characters.size() : Math.min(characters.size(), offset + length);
    return String.join("", characters.subList(offset, end));
  }

  private static final Pattern GRAPHEME = Pattern.compile("\\X");

  /**
   * The characters of {@code value} as Terraform counts them: Unicode grapheme clusters, so that a
   * letter with combining marks or an emoji with its variation selector is one character.
   */
  static List<String> graphemes(String value) {
    List<String> characters = new ArrayList<>(value.length());
    Matcher matcher = GRAPHEME.matcher(value);
    while (matcher.find()) {
      characters.add(matcher.group());
    }
    return characters;
  }

  private static String reverse(String value) {
    List<String> characters = graphemes(value);
    Collections.reverse(characters);
    return String.join("", characters);
  }

  private static String indent(int spaces, String value) {
    return value.replace("\n", "\n" + " ".repeat(Math.max(0, spaces)));
  }

  /** A search string in slashes is an RE2 regular expression, else it is literal. */
  private static String replace(String value, String search, String replacement) {
    if (search.length() > 1 && search.startsWith("/") && search.endsWith("/")) {
      Pattern pattern = pattern(search.substring(1, search.length() - 1));
      return pattern.matcher(value).replaceAll(goReplacement(replacement));
    }
    return value.replace(search, replacement);
  }

  /** Go's $1 and ${1} and ${name} in a replacement, as Java spells them. */
  private static String goReplacement(String replacement) {
    StringBuilder out = new StringBuilder();
    for (int i = 0; i < replacement.length(); i++) {
      char c = replacement.charAt(i);
      if (c == '\\') {
        out.append("\\\\");
      } else if (c == '$' && i + 1 < replacement.length() && replacement.charAt(i + 1) == '{') {
        int close = replacement.indexOf('}', i);
        String name = replacement.substring(i + 2, close < 0 ? replacement.length() : close);
        out.append(name.chars().allMatch(Character::isDigit) ? "$" + name : "${" + name + "}");
        i = close < 0 ? replacement.length() : close;
      } else if (c == '$'
          && (i + 1 >= replacement.length()
              || !Character.isLetterOrDigit(replacement.charAt(i + 1)))) {
        out.append("\\$");
      } else {
        out.append(c);
      }
    }
    return out.toString();
  }

  static Pattern pattern(String re2) {
    try {
      return Pattern.compile(NAMED_GROUP.matcher(re2).replaceAll("(?<"));
    } catch (PatternSyntaxException e) {
      throw new ValueError("invalid regular expression " + re2 + ": " + e.getDescription());
    }
  }

  private static Object regex(String expression, String value) {
    Pattern pattern = pattern(expression);
    Matcher matcher = pattern.matcher(value);
    if (!matcher.find()) {
      throw new ValueError("pattern did not match any part of the given string");
    }
    return matchValue(pattern, matcher);
  }

  private static Object regexall(String expression, String value) {
    Pattern pattern = pattern(expression);
    Matcher matcher = pattern.matcher(value);
    List<Object> matches = new ArrayList<>();
    while (matcher.find()) {
      matches.add(matchValue(pattern, matcher));
    }
    return Collections.unmodifiableList(matches);
  }

  /** No groups: the match; named groups: an object; other groups: a list of them. */
  private static Object matchValue(Pattern pattern, Matcher matcher) {
    if (matcher.groupCount() == 0) {
      return matcher.group();
    }
    Matcher names = GROUP_NAME.matcher(pattern.pattern());
    Map<String, Object> named = new LinkedHashMap<>();
    while (names.find()) {
      named.put(names.group(1), matcher.group(names.group(1)));
    }
    if (!named.isEmpty()) {
      return Values.object(named);
    }
    List<Object> groups = new ArrayList<>();
    for (int i = 1; i <= matcher.groupCount(); i++) {
      groups.add(matcher.group(i));
    }
    return Collections.unmodifiableList(groups);
  }

  private static Object join(List<Object> args) {
    String separator = str(args, 0);
    List<String> parts = new ArrayList<>();
    for (Object list : rest(args)) {
      for (Object item : Values.list(list)) {
        if (item instanceof Unknown) {
          throw new ValueError("an element is not known: " + ((Unknown) item).reason());
        }
        String text = Values.string(item);
        if (text == null) {
          throw new ValueError("a list element is null");
        }
        parts.add(text);
      }
    }
    return String.join(separator, parts);
  }

  /** format() for each element: list arguments advance together, others repeat. */
  private static Object formatlist(List<Object> args) {
    String spec = str(args, 0);
    int length = -1;
    for (Object argument : rest(args)) {
      if (argument instanceof List<?> list) {
        if (length >= 0 && list.size() != length) {
          throw new ValueError("all list arguments must have the same length");
        }
        length = list.size();
      }
    }
    if (length < 0) {
      return List.of(Format.format(spec, rest(args)));
    }
    List<Object> results = new ArrayList<>(length);
    for (int i = 0; i < length; i++) {
      List<Object> row = new ArrayList<>();
      for (Object argument : rest(args)) {
        row.add(argument instanceof List<?> list ? list.get(i) : argument);
      }
      results.add(Format.format(spec, row));
    }
    return Collections.unmodifiableList(results);
  }

  /** Terraform's format verbs, which follow Go's fmt. */
  static final class Format {
    private Format() {}

    static String format(String spec, List<Object> args) {
      StringBuilder out = new StringBuilder();
      int next = 0;
      int i = 0;
      while (i < spec.length()) {
        char c = spec.charAt(i++);
        if (c != '%') {
          out.append(c);
          continue;
        }
        if (i < spec.length() && spec.charAt(i) == '%') {
          out.append('%');
          i++;
          continue;
        }
        int start = i;
        while (i < spec.length() && "-+# 0".indexOf(spec.charAt(i)) >= 0) {
          i++;
        }
        String flags = spec.substring(start, i);
        if (i < spec.length() && spec.charAt(i) == '[') {
          int close = spec.indexOf(']', i);
          next = Integer.parseInt(spec.substring(i + 1, close)) - 1;
          i = close + 1;
        }
        int widthStart = i;
        while (i < spec.length() && Character.isDigit(spec.charAt(i))) {
          i++;
        }
        int width = i > widthStart ? Integer.parseInt(spec.substring(widthStart, i)) : -1;
        int precision = -1;
        if (i < spec.length() && spec.charAt(i) == '.') {
          int precisionStart = ++i;
          while (i < spec.length() && Character.isDigit(spec.charAt(i))) {
            i++;
          }
          precision = i > precisionStart ? Integer.parseInt(spec.substring(precisionStart, i)) : 0;
        }
        if (i >= spec.length()) {
          throw new ValueError("format \"" + spec + "\" ends in the middle of a verb");
        }
        char verb = spec.charAt(i++);
        if (next >= args.size()) {
          throw new ValueError("not enough arguments for the verb %" + verb);
        }
        String rendered = verb(verb, flags, precision, args.get(next++));
        out.append(pad(rendered, flags, width));
      }
      if (next < args.size()) {
        throw new ValueError("too many arguments; only " + next + " used by format string");
      }
      return out.toString();
    }

    private static String verb(char verb, String flags, int precision, Object value) {
      switch (verb) {
        case 'v':
          if (flags.contains("#")) {
            return EncodingFunctions.json(value);
          }
          return value instanceof List || value instanceof Map
              ? EncodingFunctions.json(value)
              : value == null ? "null" : Values.string(value);
        case 's':
          String text = Values.string(value);
          return precision >= 0 && precision < text.length() ? text.substring(0, precision) : text;
        case 'q':
          return EncodingFunctions.json(Values.string(value));
        case 't':
          return String.valueOf(Values.bool(value));
        case 'd':
          return withSign(Values.wholeNumber(value).toString(), flags);
        case 'b':
          return Values.wholeNumber(value).toString(2);
        case 'o':
          return Values.wholeNumber(value).toString(8);
        case 'x':
        case 'X':
          String hex =
              value instanceof String s && !isNumeric(s)
                  ? toHex(s)
                  : Values.wholeNumber(value).toString(16);
          return verb == 'X' ? hex.toUpperCase(Locale.ROOT) : hex;
        case 'e':
        case 'E':
          String scientific =
              String.format(
                  Locale.ROOT, "%." + (precision < 0 ? 6 : precision) + "e", Values.number(value));
          return withSign(verb == 'E' ? scientific.toUpperCase(Locale.ROOT) : scientific, flags);
        case 'f':
        case 'F':
          BigDecimal number = Values.number(value);
          return withSign(
              number
                  .setScale(precision < 0 ? 6 : precision, java.math.RoundingMode.HALF_EVEN)
                  .toPlainString(),
              flags);
        case 'g':
        case 'G':
          BigDecimal general = Values.number(value);
          String g =
              precision < 0
                  ? Values.numberText(general)
                  : new BigDecimal(general.toString())
                      .round(new java.math.MathContext(precision))
                      .stripTrailingZeros()
                      .toPlainString();
          return withSign(g, flags);
        default:
          throw new ValueError("unsupported format verb %" + verb);
      }
    }

    private static boolean isNumeric(String text) {
      try {
        new BigInteger(text);
        return true;
      } catch (NumberFormatException e) {
        return false;
      }
    }

    private static String toHex(String text) {
      StringBuilder out = new StringBuilder();
      for (byte b : text.getBytes(java.nio.charset.StandardCharsets.UTF_8)) {
        out.append(String.format("%02x", b));
      }
      return out.toString();
    }

    private static String withSign(String number, String flags) {
      if (!number.startsWith("-") && flags.contains("+")) {
        return "+" + number;
      }
      if (!number.startsWith("-") && flags.contains(" ")) {
        return " " + number;
      }
      return number;
    }

    private static String pad(String text, String flags, int width) {
      int length = text.codePointCount(0, text.length());
      if (width <= length) {
        return text;
      }
      String padding;
      if (flags.contains("-")) {
        return text + " ".repeat(width - length);
      }
      if (flags.contains("0")) {
        padding = "0".repeat(width - length);
        boolean signed = text.startsWith("-") || text.startsWith("+");
        return signed ? text.charAt(0) + padding + text.substring(1) : padding + text;
      }
      return " ".repeat(width - length) + text;
    }
  }
}
