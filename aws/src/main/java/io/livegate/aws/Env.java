package io.livegate.aws;

import io.livegate.core.LivegateException;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.Map;

/** Reads an entry point's environment, naming the variable in every error. */
public final class Env {
  private Env() {}

  public static String required(Map<String, String> environment, String name) {
    String value = environment.get(name);
    if (value == null || value.isBlank()) {
      throw new LivegateException("the environment variable " + name + " is not set");
    }
    return value;
  }

  public static String optional(Map<String, String> environment, String name, String fallback) {
    String value = environment.get(name);
    return value == null || value.isBlank() ? fallback : value;
  }

  /** An ISO-8601 duration such as {@code P3D} or {@code PT10M}. */
  public static Duration duration(Map<String, String> environment, String name, Duration fallback) {
    String value = environment.get(name);
    if (value == null || value.isBlank()) {
      return fallback;
    }
    try {
      Duration duration = Duration.parse(value);
      if (duration.isNegative() || duration.isZero()) {
        throw new LivegateException(name + " must be a positive duration, not " + value);
      }
      return duration;
    } catch (DateTimeParseException e) {
      throw new LivegateException(
          name + " must be an ISO-8601 duration such as P3D or PT10M, not " + value);
    }
  }

  public static boolean flag(Map<String, String> environment, String name) {
    return flag(environment, name, false);
  }

  /** true or false; {@code fallback} when the variable is not set. */
  public static boolean flag(Map<String, String> environment, String name, boolean fallback) {
    String value = optional(environment, name, String.valueOf(fallback));
    if (!value.equals("true") && !value.equals("false")) {
      throw new LivegateException(name + " must be true or false, not " + value);
    }
    return value.equals("true");
  }
}
