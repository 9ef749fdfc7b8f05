package io.livegate.scan.hcl;

import static io.livegate.scan.hcl.StandardFunctions.VARIADIC;
import static io.livegate.scan.hcl.StandardFunctions.define;
import static io.livegate.scan.hcl.StringFunctions.str;

import io.livegate.scan.hcl.StandardFunctions.Definition;
import io.livegate.scan.hcl.Values.ValueError;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.util.List;
import java.util.Map;

/** Terraform's numeric functions. */
final class NumericFunctions {
  private NumericFunctions() {}

  static void register(Map<String, Definition> into) {
    define(into, "abs", 1, args -> Values.number(args.get(0)).abs());
    define(into, "ceil", 1, args -> Values.number(args.get(0)).setScale(0, RoundingMode.CEILING));
    define(into, "floor", 1, args -> Values.number(args.get(0)).setScale(0, RoundingMode.FLOOR));
    define(into, "signum", 1, args -> BigDecimal.valueOf(Values.number(args.get(0)).signum()));
    define(into, "max", 1, VARIADIC, args -> extreme(args, 1));
    define(into, "min", 1, VARIADIC, args -> extreme(args, -1));
    define(
        into,
        "log",
        2,
        args ->
            fromDouble(
                Math.log(Values.number(args.get(0)).doubleValue())
                    / Math.log(Values.number(args.get(1)).doubleValue())));
    define(
        into,
        "pow",
        2,
        args -> {
          BigDecimal base = Values.number(args.get(0));
          BigDecimal exponent = Values.number(args.get(1));
          if (Values.isWhole(exponent) && exponent.signum() >= 0 && exponent.intValue() < 1000) {
            return base.pow(exponent.intValue());
          }
          return fromDouble(Math.pow(base.doubleValue(), exponent.doubleValue()));
        });
    define(into, "parseint", 2, args -> parseint(str(args, 0), Values.integer(args.get(1))));
  }

  private static BigDecimal extreme(List<Object> args, int sign) {
    BigDecimal best = null;
    for (Object argument : args) {
      BigDecimal number = Values.number(argument);
      if (best == null || number.compareTo(best) * sign > 0) {
        best = number;
      }
    }
    return best;
  }

  private static BigDecimal fromDouble(double value) {
    if (Double.isNaN(value) || Double.isInfinite(value)) {
      throw new ValueError("the result is not a finite number");
    }
    return new BigDecimal(Double.toString(value));
  }

  private static BigDecimal parseint(String text, int base) {
    if (base < 2 || base > 62) {
      throw new ValueError("base must be a whole number between 2 and 62 inclusive");
    }
    if (base > 36) {
      throw new ValueError("livegate reads bases up to 36");
    }
    try {
      return new BigDecimal(new BigInteger(text, base));
    } catch (NumberFormatException e) {
      throw new ValueError("cannot parse \"" + text + "\" as a base " + base + " integer");
    }
  }
}
