package io.livegate.core.hcl;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The Terraform functions that live configs use to build paths. Each takes values and returns a
 * value or an {@link Unknown}; none touches the filesystem, the network or the environment.
 */
public final class StandardFunctions {
  private static final ObjectMapper JSON = new ObjectMapper();

  private StandardFunctions() {}

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
        return lazyArguments.size() == 1 && !(lazyArguments.get(0).get() instanceof Unknown);
      default:
        break;
    }
    List<Object> arguments = new ArrayList<>(lazyArguments.size());
    for (Supplier<Object> argument : lazyArguments) {
      Object value = argument.get();
      if (value instanceof Unknown) {
        return value;
      }
      arguments.add(value);
    }
    try {
      return apply(name, arguments, file, line);
    } catch (IllegalArgumentException e) {
      return new Unknown(e.getMessage());
    } catch (ClassCastException | IndexOutOfBoundsException | ArithmeticException e) {
      return Unknown.at(file, line, name + "() cannot take the arguments " + arguments);
    }
  }

  private static Object apply(String name, List<Object> args, String file, int line) {
    return switch (name) {
      case "lower" -> text(args, 0, file, line).toLowerCase(Locale.ROOT);
      case "upper" -> text(args, 0, file, line).toUpperCase(Locale.ROOT);
      case "trimspace" -> text(args, 0, file, line).strip();
      case "trimprefix" -> {
        String value = text(args, 0, file, line);
        String prefix = text(args, 1, file, line);
        yield value.startsWith(prefix) ? value.substring(prefix.length()) : value;
      }
      case "trimsuffix" -> {
        String value = text(args, 0, file, line);
        String suffix = text(args, 1, file, line);
        yield value.endsWith(suffix) ? value.substring(0, value.length() - suffix.length()) : value;
      }
      case "startswith" -> text(args, 0, file, line).startsWith(text(args, 1, file, line));
      case "endswith" -> text(args, 0, file, line).endsWith(text(args, 1, file, line));
      case "replace" ->
          replace(text(args, 0, file, line), text(args, 1, file, line), text(args, 2, file, line));
      case "split" ->
          List.of(
              text(args, 1, file, line)
                  .split(java.util.regex.Pattern.quote(text(args, 0, file, line)), -1));
      case "join" -> join(text(args, 0, file, line), args.subList(1, args.size()), file, line);
      case "format" -> format(args, file, line);
      case "basename" -> {
        String path = stripTrailingSlashes(text(args, 0, file, line));
        yield path.substring(path.lastIndexOf('/') + 1);
      }
      case "dirname" -> dirname(text(args, 0, file, line));
      case "abspath" -> text(args, 0, file, line);
      case "tostring" -> Evaluator.asText(args.get(0), file, line);
      case "tolist", "toset" -> new ArrayList<>((List<?>) args.get(0));
      case "concat" -> {
        List<Object> all = new ArrayList<>();
        args.forEach(list -> all.addAll((List<?>) list));
        yield Collections.unmodifiableList(all);
      }
      case "compact" ->
          ((List<?>) args.get(0))
              .stream().filter(item -> item != null && !"".equals(item)).toList();
      case "distinct" -> List.copyOf(new LinkedHashSet<>((List<?>) args.get(0)));
      case "flatten" -> flatten((List<?>) args.get(0));
      case "reverse" -> {
        List<Object> reversed = new ArrayList<>((List<?>) args.get(0));
        Collections.reverse(reversed);
        yield reversed;
      }
      case "contains" -> ((List<?>) args.get(0)).contains(args.get(1));
      case "length" -> new BigDecimal(length(args.get(0)));
      case "element" -> {
        List<?> list = (List<?>) args.get(0);
        yield list.get(((BigDecimal) args.get(1)).intValue() % list.size());
      }
      case "keys" -> List.copyOf(((Map<?, ?>) args.get(0)).keySet());
      case "values" -> List.copyOf(((Map<?, ?>) args.get(0)).values());
      case "lookup" -> {
        Map<?, ?> map = (Map<?, ?>) args.get(0);
        Object key = args.get(1);
        if (map.containsKey(key)) {
          yield map.get(key);
        }
        yield args.size() > 2 ? args.get(2) : Unknown.at(file, line, "lookup(): no key " + key);
      }
      case "merge" -> {
        Map<Object, Object> merged = new LinkedHashMap<>();
        args.forEach(map -> merged.putAll((Map<?, ?>) map));
        yield Collections.unmodifiableMap(merged);
      }
      case "coalesce" ->
          args.stream()
              .filter(value -> value != null && !"".equals(value))
              .findFirst()
              .orElse(Unknown.at(file, line, "coalesce(): every argument is null or empty"));
      case "jsondecode" -> jsonDecode(text(args, 0, file, line), file, line);
      default -> Unknown.at(file, line, "livegate does not evaluate the function " + name + "()");
    };
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

  private static String stripTrailingSlashes(String path) {
    String result = path;
    while (result.length() > 1 && result.endsWith("/")) {
      result = result.substring(0, result.length() - 1);
    }
    return result;
  }

  private static String text(List<Object> args, int index, String file, int line) {
    Object value = Evaluator.asText(args.get(index), file, line);
    if (value instanceof Unknown unknown) {
      throw new IllegalArgumentException(unknown.reason());
    }
    return (String) value;
  }

  private static String replace(String value, String search, String replacement) {
    if (search.length() > 1 && search.startsWith("/") && search.endsWith("/")) {
      return value.replaceAll(
          search.substring(1, search.length() - 1), replacement.replace("$", "\\$"));
    }
    return value.replace(search, replacement);
  }

  private static Object join(String separator, List<Object> lists, String file, int line) {
    List<String> parts = new ArrayList<>();
    for (Object list : lists) {
      for (Object item : (List<?>) list) {
        Object rendered = Evaluator.asText(item, file, line);
        if (rendered instanceof Unknown) {
          return rendered;
        }
        parts.add((String) rendered);
      }
    }
    return String.join(separator, parts);
  }

  private static Object format(List<Object> args, String file, int line) {
    String spec = text(args, 0, file, line);
    StringBuilder out = new StringBuilder();
    int next = 1;
    for (int i = 0; i < spec.length(); i++) {
      char c = spec.charAt(i);
      if (c != '%' || i + 1 >= spec.length()) {
        out.append(c);
        continue;
      }
      char verb = spec.charAt(++i);
      if (verb == '%') {
        out.append('%');
      } else if (verb == 's' || verb == 'd' || verb == 'v') {
        if (next >= args.size()) {
          return Unknown.at(file, line, "format(): not enough arguments for \"" + spec + "\"");
        }
        Object rendered = Evaluator.asText(args.get(next++), file, line);
        if (rendered instanceof Unknown) {
          return rendered;
        }
        out.append(rendered);
      } else {
        return Unknown.at(file, line, "format(): livegate does not evaluate the verb %" + verb);
      }
    }
    return out.toString();
  }

  private static List<Object> flatten(List<?> list) {
    List<Object> flat = new ArrayList<>();
    for (Object item : list) {
      if (item instanceof List<?> nested) {
        flat.addAll(flatten(nested));
      } else {
        flat.add(item);
      }
    }
    return flat;
  }

  private static int length(Object value) {
    if (value instanceof String text) {
      return text.codePointCount(0, text.length());
    }
    if (value instanceof Map<?, ?> map) {
      return map.size();
    }
    return ((List<?>) value).size();
  }

  private static Object jsonDecode(String text, String file, int line) {
    try {
      return fromJson(JSON.readTree(text));
    } catch (JsonProcessingException e) {
      return Unknown.at(file, line, "jsondecode(): not valid JSON: " + e.getOriginalMessage());
    }
  }

  private static Object fromJson(JsonNode node) {
    if (node.isObject()) {
      Map<String, Object> map = new LinkedHashMap<>();
      node.fields().forEachRemaining(field -> map.put(field.getKey(), fromJson(field.getValue())));
      return Collections.unmodifiableMap(map);
    }
    if (node.isArray()) {
      List<Object> list = new ArrayList<>();
      node.forEach(item -> list.add(fromJson(item)));
      return Collections.unmodifiableList(list);
    }
    if (node.isNumber()) {
      return node.decimalValue();
    }
    if (node.isBoolean()) {
      return node.booleanValue();
    }
    return node.isNull() ? null : node.asText();
  }
}
