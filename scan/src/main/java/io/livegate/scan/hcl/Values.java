package io.livegate.scan.hcl;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Terraform's value model over plain Java values: {@link String}, {@link BigDecimal}, {@link
 * Boolean}, {@code null}, {@link List} (list, tuple or set) and {@link Map} with string keys (map
 * or object), plus {@link Unknown}. The conversions are Terraform's automatic ones: a number or a
 * bool to its string, a string of a number to the number, {@code "true"} and {@code "false"} to
 * bools. A value that does not convert throws {@link ValueError}.
 */
public final class Values {
  private Values() {}

  /** A value of the wrong type or out of range; the caller adds the construct and location. */
  static final class ValueError extends RuntimeException {
    private static final long serialVersionUID = 1L;

    ValueError(String message) {
      super(message, null, false, false);
    }
  }

  /** The value as a string, the way Terraform converts it; null stays null. */
  public static String string(Object value) {
    if (value == null || value instanceof String) {
      return (String) value;
    }
    if (value instanceof BigDecimal number) {
      return numberText(number);
    }
    if (value instanceof Boolean) {
      return value.toString();
    }
    throw new ValueError("a string is required, found " + describe(value));
  }

  /** A number as Terraform prints it: no exponent, no trailing zeros. */
  public static String numberText(BigDecimal number) {
    return number.signum() == 0 ? "0" : number.stripTrailingZeros().toPlainString();
  }

  static BigDecimal number(Object value) {
    if (value instanceof BigDecimal number) {
      return number;
    }
    if (value instanceof String text) {
      try {
        return new BigDecimal(text.strip());
      } catch (NumberFormatException e) {
        throw new ValueError("a number is required, found " + describe(value));
      }
    }
    throw new ValueError("a number is required, found " + describe(value));
  }

  static int integer(Object value) {
    BigDecimal number = number(value);
    try {
      return number.intValueExact();
    } catch (ArithmeticException e) {
      throw new ValueError("a whole number is required, found " + numberText(number));
    }
  }

  static boolean bool(Object value) {
    if (value instanceof Boolean bool) {
      return bool;
    }
    if ("true".equals(value)) {
      return true;
    }
    if ("false".equals(value)) {
      return false;
    }
    throw new ValueError("a bool is required, found " + describe(value));
  }

  /** A list, tuple or set; a null is an error. */
  static List<?> list(Object value) {
    if (value instanceof List<?> list) {
      return list;
    }
    throw new ValueError("a list is required, found " + describe(value));
  }

  @SuppressWarnings("unchecked")
  static Map<String, Object> map(Object value) {
    if (value instanceof Map<?, ?> map) {
      return (Map<String, Object>) map;
    }
    throw new ValueError("a map is required, found " + describe(value));
  }

  /** A map's keys in Terraform's order: lexicographic. */
  static List<String> sortedKeys(Map<String, ?> map) {
    List<String> keys = new ArrayList<>(map.keySet());
    Collections.sort(keys);
    return keys;
  }

  /** A read-only object with its keys in Terraform's order. */
  static Map<String, Object> object(Map<String, Object> entries) {
    return Collections.unmodifiableMap(new TreeMap<>(entries));
  }

  /** Terraform's equality: same type and value; numbers by value, collections element-wise. */
  static boolean equal(Object left, Object right) {
    if (left instanceof BigDecimal a && right instanceof BigDecimal b) {
      return a.compareTo(b) == 0;
    }
    if (left instanceof List<?> a && right instanceof List<?> b) {
      if (a.size() != b.size()) {
        return false;
      }
      for (int i = 0; i < a.size(); i++) {
        if (!equal(a.get(i), b.get(i))) {
          return false;
        }
      }
      return true;
    }
    if (left instanceof Map<?, ?> a && right instanceof Map<?, ?> b) {
      if (!a.keySet().equals(b.keySet())) {
        return false;
      }
      for (Object key : a.keySet()) {
        if (!equal(a.get(key), b.get(key))) {
          return false;
        }
      }
      return true;
    }
    return left == null ? right == null : left.equals(right);
  }

  /** The first {@link Unknown} in a value, looking into collections; null when fully known. */
  static Unknown firstUnknown(Object value) {
    if (value instanceof Unknown unknown) {
      return unknown;
    }
    if (value instanceof List<?> list) {
      for (Object item : list) {
        Unknown found = firstUnknown(item);
        if (found != null) {
          return found;
        }
      }
    } else if (value instanceof Map<?, ?> map) {
      for (Object item : map.values()) {
        Unknown found = firstUnknown(item);
        if (found != null) {
          return found;
        }
      }
    }
    return null;
  }

  static boolean isWhole(BigDecimal number) {
    return number.signum() == 0 || number.stripTrailingZeros().scale() <= 0;
  }

  static BigInteger wholeNumber(Object value) {
    BigDecimal number = number(value);
    if (!isWhole(number)) {
      throw new ValueError("a whole number is required, found " + numberText(number));
    }
    return number.toBigIntegerExact();
  }

  /** Terraform's name of the value's type, for messages. */
  public static String describe(Object value) {
    if (value == null) {
      return "null";
    }
    if (value instanceof List) {
      return "a list";
    }
    if (value instanceof Map) {
      return "an object";
    }
    if (value instanceof Unknown) {
      return "an unknown value";
    }
    if (value instanceof String text) {
      return "the string \"" + (text.length() > 60 ? text.substring(0, 57) + "..." : text) + "\"";
    }
    if (value instanceof BigDecimal number) {
      return "the number " + numberText(number);
    }
    return "the bool " + value;
  }
}
