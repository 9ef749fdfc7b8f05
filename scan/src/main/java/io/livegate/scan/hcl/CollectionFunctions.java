package io.livegate.scan.hcl;

import static io.livegate.scan.hcl.StandardFunctions.VARIADIC;
import static io.livegate.scan.hcl.StandardFunctions.define;

import io.livegate.scan.hcl.StandardFunctions.Definition;
import io.livegate.scan.hcl.Values.ValueError;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Terraform's collection and type-conversion functions. A set is a list without duplicates, its
 * strings in lexicographic and its numbers in numeric order, as Terraform orders set elements.
 */
final class CollectionFunctions {
  private CollectionFunctions() {}

  static void register(Map<String, Definition> into) {
    define(into, "length", 1, args -> BigDecimal.valueOf(length(args.get(0))));
    define(into, "alltrue", 1, args -> all(Values.list(args.get(0)), true));
    define(into, "anytrue", 1, args -> !all(Values.list(args.get(0)), false));
    define(into, "chunklist", 2, args -> chunklist(Values.list(args.get(0)), args.get(1)));
    define(into, "coalesce", 1, VARIADIC, CollectionFunctions::coalesce);
    define(
        into,
        "coalescelist",
        1,
        VARIADIC,
        args -> {
          for (Object list : args) {
            if (list != null && !Values.list(list).isEmpty()) {
              return list;
            }
          }
          throw new ValueError("no non-null, non-empty list arguments");
        });
    define(
        into,
        "compact",
        1,
        args ->
            Values.list(args.get(0)).stream()
                .filter(item -> item != null && !"".equals(item))
                .toList());
    define(
        into,
        "concat",
        0,
        VARIADIC,
        args -> {
          List<Object> all = new ArrayList<>();
          args.forEach(list -> all.addAll(Values.list(list)));
          return Collections.unmodifiableList(all);
        });
    define(into, "contains", 2, args -> indexOf(Values.list(args.get(0)), args.get(1)) >= 0);
    define(into, "distinct", 1, args -> distinct(Values.list(args.get(0))));
    define(into, "element", 2, args -> element(Values.list(args.get(0)), args.get(1)));
    define(into, "flatten", 1, args -> flatten(Values.list(args.get(0))));
    define(
        into,
        "index",
        2,
        args -> {
          int index = indexOf(Values.list(args.get(0)), args.get(1));
          if (index < 0) {
            throw new ValueError("item not found");
          }
          return BigDecimal.valueOf(index);
        });
    define(into, "keys", 1, args -> List.copyOf(Values.sortedKeys(Values.map(args.get(0)))));
    define(
        into,
        "values",
        1,
        args -> {
          Map<String, Object> map = Values.map(args.get(0));
          List<Object> values = new ArrayList<>();
          Values.sortedKeys(map).forEach(key -> values.add(map.get(key)));
          return Collections.unmodifiableList(values);
        });
    define(into, "lookup", 2, 3, CollectionFunctions::lookup);
    define(into, "matchkeys", 3, CollectionFunctions::matchkeys);
    define(into, "merge", 0, VARIADIC, CollectionFunctions::merge);
    define(
        into,
        "one",
        1,
        args -> {
          List<?> list = Values.list(args.get(0));
          if (list.size() > 1) {
            throw new ValueError(
                "must be a list, set, or tuple value with either zero or one elements");
          }
          return list.isEmpty() ? null : list.get(0);
        });
    define(into, "range", 1, 3, CollectionFunctions::range);
    define(
        into,
        "reverse",
        1,
        args -> {
          List<Object> reversed = new ArrayList<>(Values.list(args.get(0)));
          Collections.reverse(reversed);
          return Collections.unmodifiableList(reversed);
        });
    define(into, "setintersection", 1, VARIADIC, CollectionFunctions::setintersection);
    define(
        into,
        "setunion",
        1,
        VARIADIC,
        args -> {
          List<Object> all = new ArrayList<>();
          args.forEach(set -> all.addAll(Values.list(set)));
          return set(all);
        });
    define(
        into,
        "setsubtract",
        2,
        args -> {
          List<?> other = Values.list(args.get(1));
          return set(
              Values.list(args.get(0)).stream().filter(item -> indexOf(other, item) < 0).toList());
        });
    define(into, "setproduct", 1, VARIADIC, CollectionFunctions::setproduct);
    define(into, "slice", 3, CollectionFunctions::slice);
    define(into, "sort", 1, CollectionFunctions::sort);
    define(into, "sum", 1, CollectionFunctions::sum);
    define(into, "transpose", 1, CollectionFunctions::transpose);
    define(into, "zipmap", 2, CollectionFunctions::zipmap);

    define(into, "tostring", 1, args -> Values.string(args.get(0)));
    define(into, "tonumber", 1, args -> args.get(0) == null ? null : Values.number(args.get(0)));
    define(into, "tobool", 1, args -> args.get(0) == null ? null : Values.bool(args.get(0)));
    define(into, "tolist", 1, args -> List.copyOf(Values.list(args.get(0))));
    define(into, "toset", 1, args -> set(Values.list(args.get(0))));
    define(into, "tomap", 1, args -> tomap(Values.map(args.get(0))));
    define(into, "sensitive", 1, args -> args.get(0));
    define(into, "nonsensitive", 1, args -> args.get(0));
    define(into, "issensitive", 1, args -> false);
  }

  private static int length(Object value) {
    if (value instanceof String text) {
      return StringFunctions.graphemes(text).size();
    }
    if (value instanceof Map<?, ?> map) {
      return map.size();
    }
    return Values.list(value).size();
  }

  private static boolean all(List<?> list, boolean wanted) {
    for (Object item : list) {
      if (item == null || Values.bool(item) != wanted) {
        return false;
      }
    }
    return true;
  }

  private static Object chunklist(List<?> list, Object sizeArgument) {
    int size = Values.integer(sizeArgument);
    if (size < 0) {
      throw new ValueError("the size argument must be positive");
    }
    if (size == 0) {
      return List.of(list);
    }
    List<Object> chunks = new ArrayList<>();
    for (int i = 0; i < list.size(); i += size) {
      chunks.add(List.copyOf(list.subList(i, Math.min(list.size(), i + size))));
    }
    return Collections.unmodifiableList(chunks);
  }

  private static Object coalesce(List<Object> args) {
    for (Object value : args) {
      if (value != null && !"".equals(value)) {
        return value;
      }
    }
    throw new ValueError("no non-null, non-empty-string arguments");
  }

  static int indexOf(List<?> list, Object value) {
    for (int i = 0; i < list.size(); i++) {
      if (Values.equal(list.get(i), value)) {
        return i;
      }
    }
    return -1;
  }

  private static List<Object> distinct(List<?> list) {
    List<Object> result = new ArrayList<>();
    for (Object item : list) {
      if (indexOf(result, item) < 0) {
        result.add(item);
      }
    }
    return Collections.unmodifiableList(result);
  }

  /** Distinct elements in Terraform's set order: strings and numbers sorted. */
  static List<Object> set(List<?> elements) {
    List<Object> result = new ArrayList<>(distinct(elements));
    if (result.stream().allMatch(item -> item instanceof String)) {
      result.sort((a, b) -> ((String) a).compareTo((String) b));
    } else if (result.stream().allMatch(item -> item instanceof BigDecimal)) {
      result.sort((a, b) -> ((BigDecimal) a).compareTo((BigDecimal) b));
    }
    return Collections.unmodifiableList(result);
  }

  private static Object element(List<?> list, Object indexArgument) {
    int index = Values.integer(indexArgument);
    if (list.isEmpty()) {
      throw new ValueError("cannot use element function with an empty list");
    }
    if (index < 0) {
      throw new ValueError("cannot use element function with a negative index");
    }
    return list.get(index % list.size());
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
    return Collections.unmodifiableList(flat);
  }

  private static Object lookup(List<Object> args) {
    Map<String, Object> map = Values.map(args.get(0));
    String key = Values.string(args.get(1));
    if (map.containsKey(key)) {
      return map.get(key);
    }
    if (args.size() > 2) {
      return args.get(2);
    }
    throw new ValueError("the given key \"" + key + "\" does not exist in the map");
  }

  private static Object matchkeys(List<Object> args) {
    List<?> values = Values.list(args.get(0));
    List<?> keys = Values.list(args.get(1));
    List<?> search = Values.list(args.get(2));
    if (values.size() != keys.size()) {
      throw new ValueError("length of keys and values should be equal");
    }
    List<Object> result = new ArrayList<>();
    for (int i = 0; i < keys.size(); i++) {
      if (indexOf(search, keys.get(i)) >= 0) {
        result.add(values.get(i));
      }
    }
    return Collections.unmodifiableList(result);
  }

  private static Object merge(List<Object> args) {
    Map<String, Object> merged = new TreeMap<>();
    for (Object map : args) {
      if (map != null) {
        merged.putAll(Values.map(map));
      }
    }
    return Collections.unmodifiableMap(merged);
  }

  private static Object range(List<Object> args) {
    BigDecimal start = args.size() == 1 ? BigDecimal.ZERO : Values.number(args.get(0));
    BigDecimal limit = Values.number(args.get(args.size() == 1 ? 0 : 1));
    BigDecimal step =
        args.size() == 3
            ? Values.number(args.get(2))
            : start.compareTo(limit) <= 0 ? BigDecimal.ONE : BigDecimal.ONE.negate();
    if (step.signum() == 0) {
      throw new ValueError("step must not be zero");
    }
    if ((step.signum() > 0 && start.compareTo(limit) > 0)
        || (step.signum() < 0 && start.compareTo(limit) < 0)) {
      return List.of();
    }
    List<Object> result = new ArrayList<>();
    for (BigDecimal value = start;
        step.signum() > 0 ? value.compareTo(limit) < 0 : value.compareTo(limit) > 0;
        value = value.add(step)) {
      if (result.size() >= 1024) {
        throw new ValueError(
            "more than 1024 values were generated; either decrease the difference between start and end or use a smaller step");
      }
      result.add(value);
    }
    return Collections.unmodifiableList(result);
  }

  private static Object setintersection(List<Object> args) {
    List<Object> result = new ArrayList<>(Values.list(args.get(0)));
    for (Object other : args.subList(1, args.size())) {
      List<?> set = Values.list(other);
      result.removeIf(item -> indexOf(set, item) < 0);
    }
    return set(result);
  }

  private static Object setproduct(List<Object> args) {
    List<List<Object>> product = new ArrayList<>();
    product.add(List.of());
    for (Object argument : args) {
      List<List<Object>> next = new ArrayList<>();
      for (List<Object> prefix : product) {
        for (Object item : Values.list(argument)) {
          List<Object> combination = new ArrayList<>(prefix);
          combination.add(item);
          next.add(Collections.unmodifiableList(combination));
        }
      }
      product = next;
    }
    return List.copyOf(product);
  }

  private static Object slice(List<Object> args) {
    List<?> list = Values.list(args.get(0));
    int start = Values.integer(args.get(1));
    int end = Values.integer(args.get(2));
    if (start < 0 || end > list.size() || start > end) {
      throw new ValueError(
          "the indexes "
              + start
              + " and "
              + end
              + " are out of range for a list of "
              + list.size());
    }
    return List.copyOf(list.subList(start, end));
  }

  private static Object sort(List<Object> args) {
    List<String> strings = new ArrayList<>();
    for (Object item : Values.list(args.get(0))) {
      String text = Values.string(item);
      if (text == null) {
        throw new ValueError("given list element is null");
      }
      strings.add(text);
    }
    Collections.sort(strings);
    return List.copyOf(strings);
  }

  private static Object sum(List<Object> args) {
    List<?> list = Values.list(args.get(0));
    if (list.isEmpty()) {
      throw new ValueError("cannot sum an empty list");
    }
    BigDecimal total = BigDecimal.ZERO;
    for (Object item : list) {
      total = total.add(Values.number(item));
    }
    return total;
  }

  private static Object transpose(List<Object> args) {
    Map<String, List<Object>> result = new TreeMap<>();
    Map<String, Object> map = Values.map(args.get(0));
    for (String key : Values.sortedKeys(map)) {
      for (Object value : Values.list(map.get(key))) {
        result.computeIfAbsent(Values.string(value), k -> new ArrayList<>()).add(key);
      }
    }
    Map<String, Object> frozen = new LinkedHashMap<>();
    result.forEach((key, list) -> frozen.put(key, List.copyOf(list)));
    return Collections.unmodifiableMap(frozen);
  }

  private static Object zipmap(List<Object> args) {
    List<?> keys = Values.list(args.get(0));
    List<?> values = Values.list(args.get(1));
    if (keys.size() != values.size()) {
      throw new ValueError(
          "number of keys ("
              + keys.size()
              + ") does not match number of values ("
              + values.size()
              + ")");
    }
    Map<String, Object> result = new TreeMap<>();
    for (int i = 0; i < keys.size(); i++) {
      result.put(Values.string(keys.get(i)), values.get(i));
    }
    return Collections.unmodifiableMap(result);
  }

  /** A map's values all of one type: mixed strings, numbers and bools become strings. */
  private static Object tomap(Map<String, Object> map) {
    boolean scalarsOnly =
        map.values().stream()
            .allMatch(
                v ->
                    v == null
                        || v instanceof String
                        || v instanceof BigDecimal
                        || v instanceof Boolean);
    boolean mixed =
        map.values().stream().filter(v -> v != null).map(Object::getClass).distinct().count() > 1;
    Map<String, Object> result = new TreeMap<>();
    map.forEach(
        (key, value) -> result.put(key, scalarsOnly && mixed ? Values.string(value) : value));
    return Collections.unmodifiableMap(result);
  }
}
