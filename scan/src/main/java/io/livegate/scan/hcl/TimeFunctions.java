package io.livegate.scan.hcl;

import static io.livegate.scan.hcl.StandardFunctions.define;
import static io.livegate.scan.hcl.StringFunctions.str;

import io.livegate.scan.hcl.StandardFunctions.Definition;
import io.livegate.scan.hcl.Values.ValueError;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.time.format.TextStyle;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Terraform's pure date functions over RFC 3339 timestamps ({@code timestamp()} is not pure). */
final class TimeFunctions {
  private static final Pattern DURATION_PART =
      Pattern.compile("([0-9]*\\.?[0-9]+)(ns|us|µs|ms|s|m|h)");

  private TimeFunctions() {}

  static void register(Map<String, Definition> into) {
    define(into, "formatdate", 2, args -> formatdate(str(args, 0), timestamp(str(args, 1))));
    define(
        into,
        "timeadd",
        2,
        args ->
            timestamp(str(args, 0))
                .plus(duration(str(args, 1)))
                .format(DateTimeFormatter.ISO_OFFSET_DATE_TIME)
                .replace("+00:00", "Z"));
    define(
        into,
        "timecmp",
        2,
        args ->
            BigDecimal.valueOf(
                Integer.signum(
                    timestamp(str(args, 0))
                        .toInstant()
                        .compareTo(timestamp(str(args, 1)).toInstant()))));
  }

  private static OffsetDateTime timestamp(String text) {
    try {
      return OffsetDateTime.parse(text, DateTimeFormatter.ISO_OFFSET_DATE_TIME);
    } catch (DateTimeParseException e) {
      throw new ValueError("not a valid RFC3339 timestamp: \"" + text + "\"");
    }
  }

  /** A Go duration such as {@code "1h30m"} or {@code "-10s"}. */
  private static Duration duration(String text) {
    String rest = text;
    boolean negative = rest.startsWith("-");
    if (negative || rest.startsWith("+")) {
      rest = rest.substring(1);
    }
    Matcher matcher = DURATION_PART.matcher(rest);
    double nanos = 0;
    int end = 0;
    while (matcher.find() && matcher.start() == end) {
      double amount = Double.parseDouble(matcher.group(1));
      double unit =
          switch (matcher.group(2)) {
            case "ns" -> 1;
            case "us", "µs" -> 1e3;
            case "ms" -> 1e6;
            case "s" -> 1e9;
            case "m" -> 60e9;
            default -> 3600e9;
          };
      nanos += amount * unit;
      end = matcher.end();
    }
    if (end != rest.length() || rest.isEmpty()) {
      throw new ValueError("invalid duration \"" + text + "\"");
    }
    Duration duration = Duration.ofNanos((long) nanos);
    return negative ? duration.negated() : duration;
  }

  private static String formatdate(String spec, OffsetDateTime time) {
    StringBuilder out = new StringBuilder();
    int i = 0;
    while (i < spec.length()) {
      char c = spec.charAt(i);
      if (c == '\'') {
        int close = spec.indexOf('\'', i + 1);
        if (close < 0) {
          throw new ValueError("unterminated literal '");
        }
        out.append(close == i + 1 ? "'" : spec.substring(i + 1, close));
        i = close + 1;
        continue;
      }
      if (!Character.isLetter(c)) {
        out.append(c);
        i++;
        continue;
      }
      int run = i;
      while (run < spec.length() && spec.charAt(run) == c) {
        run++;
      }
      out.append(token(spec.substring(i, run), time));
      i = run;
    }
    return out.toString();
  }

  private static String token(String token, OffsetDateTime time) {
    int hour12 = time.getHour() % 12 == 0 ? 12 : time.getHour() % 12;
    ZoneOffset offset = time.getOffset();
    return switch (token) {
      case "YYYY" -> String.format("%04d", time.getYear());
      case "YY" -> String.format("%02d", time.getYear() % 100);
      case "MMMM" -> time.getMonth().getDisplayName(TextStyle.FULL, Locale.ENGLISH);
      case "MMM" -> time.getMonth().getDisplayName(TextStyle.SHORT, Locale.ENGLISH);
      case "MM" -> String.format("%02d", time.getMonthValue());
      case "M" -> String.valueOf(time.getMonthValue());
      case "DD" -> String.format("%02d", time.getDayOfMonth());
      case "D" -> String.valueOf(time.getDayOfMonth());
      case "EEEE" -> time.getDayOfWeek().getDisplayName(TextStyle.FULL, Locale.ENGLISH);
      case "EEE" -> time.getDayOfWeek().getDisplayName(TextStyle.SHORT, Locale.ENGLISH);
      case "hh" -> String.format("%02d", time.getHour());
      case "h" -> String.valueOf(time.getHour());
      case "HH" -> String.format("%02d", hour12);
      case "H" -> String.valueOf(hour12);
      case "AA" -> time.getHour() < 12 ? "AM" : "PM";
      case "aa" -> time.getHour() < 12 ? "am" : "pm";
      case "mm" -> String.format("%02d", time.getMinute());
      case "m" -> String.valueOf(time.getMinute());
      case "ss" -> String.format("%02d", time.getSecond());
      case "s" -> String.valueOf(time.getSecond());
      case "ZZZZZ" -> offset.getTotalSeconds() == 0 ? "+00:00" : offset.getId();
      case "ZZZZ" -> (offset.getTotalSeconds() == 0 ? "+00:00" : offset.getId()).replace(":", "");
      case "ZZZ" -> offset.getTotalSeconds() == 0 ? "UTC" : offset.getId().replace(":", "");
      case "Z" -> offset.getTotalSeconds() == 0 ? "Z" : offset.getId();
      default -> throw new ValueError("invalid date format verb \"" + token + "\"");
    };
  }
}
