package io.livegate.scan.hcl;

import io.livegate.scan.hcl.Values.ValueError;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * Terraform's pure functions: string, collection, encoding, numeric, hashing, IP network, date and
 * type conversion. Each takes values and returns a value or an {@link Unknown} naming the function
 * and the problem; none touches the filesystem, the network, the clock or the environment (the
 * filesystem functions live with the config that knows its directory).
 */
public final class StandardFunctions {
  /** One function: its arity and its body, which throws {@link ValueError} on a bad argument. */
  record Definition(int minArguments, int maxArguments, Body body) {}

  /** A function's body over fully known arguments. */
  @FunctionalInterface
  interface Body {
    Object apply(List<Object> arguments);
  }

  /** For functions that take any number of arguments. */
  static final int VARIADIC = Integer.MAX_VALUE;

  private static final Map<String, Definition> FUNCTIONS = new HashMap<>();

  static {
    StringFunctions.register(FUNCTIONS);
    CollectionFunctions.register(FUNCTIONS);
    EncodingFunctions.register(FUNCTIONS);
    NumericFunctions.register(FUNCTIONS);
    CryptoFunctions.register(FUNCTIONS);
    NetworkFunctions.register(FUNCTIONS);
    TimeFunctions.register(FUNCTIONS);
    define(FUNCTIONS, "dirname", 1, args -> dirname(StringFunctions.str(args, 0)));
    define(FUNCTIONS, "basename", 1, args -> basename(StringFunctions.str(args, 0)));
    // Paths in terragrunt configs are absolute already (get_terragrunt_dir() and friends).
    define(FUNCTIONS, "abspath", 1, args -> StringFunctions.str(args, 0));
  }

  private StandardFunctions() {}

  /** Whether {@code name} is one of these functions (or {@code try}/{@code can}). */
  public static boolean has(String name) {
    return FUNCTIONS.containsKey(name) || name.equals("try") || name.equals("can");
  }

  /** Calls {@code name}, or returns an {@link Unknown} when livegate does not implement it. */
  public static Object call(
      String name, List<Supplier<Object>> lazyArguments, String file, int line) {
    switch (name) {
      case "try":
        for (Supplier<Object> argument : lazyArguments) {
          Object value = argument.get();
          if (!(value instanceof Unknown)) {
            return value;
          }
        }
        return Unknown.at(file, line, "no argument of try() could be evaluated");
      case "can":
        if (lazyArguments.size() != 1) {
          return Unknown.at(file, line, "can() takes exactly one argument");
        }
        return !(lazyArguments.get(0).get() instanceof Unknown);
      default:
        break;
    }
    Definition definition = FUNCTIONS.get(name);
    if (definition == null) {
      return Unknown.at(file, line, "livegate does not evaluate the function " + name + "()");
    }
    int count = lazyArguments.size();
    if (count < definition.minArguments() || count > definition.maxArguments()) {
      return Unknown.at(file, line, name + "() " + arity(definition) + ", found " + count);
    }
    List<Object> arguments = new ArrayList<>(count);
    for (Supplier<Object> argument : lazyArguments) {
      Object value = argument.get();
      if (value instanceof Unknown) {
        return value;
      }
      arguments.add(value);
    }
    try {
      return definition.body().apply(arguments);
    } catch (ValueError e) {
      return Unknown.at(file, line, name + "(): " + e.getMessage());
    } catch (ClassCastException | NullPointerException e) {
      return Unknown.at(file, line, name + "() cannot take the arguments " + shown(arguments));
    }
  }

  private static String arity(Definition definition) {
    int min = definition.minArguments();
    int max = definition.maxArguments();
    if (min == max) {
      return "takes " + min + (min == 1 ? " argument" : " arguments");
    }
    return max == VARIADIC
        ? "takes at least " + min + (min == 1 ? " argument" : " arguments")
        : "takes " + min + " to " + max + " arguments";
  }

  private static String shown(List<Object> arguments) {
    List<String> described = new ArrayList<>();
    arguments.forEach(argument -> described.add(Values.describe(argument)));
    return String.join(", ", described);
  }

  /** The directory part of a path, as Terraform's dirname() gives it. */
  public static String dirname(String path) {
    String trimmed = stripTrailingSlashes(path);
    int slash = trimmed.lastIndexOf('/');
    if (slash < 0) {
      return ".";
    }
    return slash == 0 ? "/" : trimmed.substring(0, slash);
  }

  private static String basename(String path) {
    String trimmed = stripTrailingSlashes(path);
    return trimmed.substring(trimmed.lastIndexOf('/') + 1);
  }

  private static String stripTrailingSlashes(String path) {
    String result = path;
    while (result.length() > 1 && result.endsWith("/")) {
      result = result.substring(0, result.length() - 1);
    }
    return result;
  }

  /** Registers a function of a fixed arity. */
  static void define(Map<String, Definition> into, String name, int arity, Body body) {
    into.put(name, new Definition(arity, arity, body));
  }

  static void define(Map<String, Definition> into, String name, int min, int max, Body body) {
    into.put(name, new Definition(min, max, body));
  }
}
