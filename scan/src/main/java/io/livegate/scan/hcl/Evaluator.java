package io.livegate.scan.hcl;

import io.livegate.scan.hcl.Values.ValueError;
import java.math.BigDecimal;
import java.math.MathContext;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Supplier;

/**
 * Gives an {@link Expression} a value, with Terraform's semantics (see {@link Values} for the value
 * model). Evaluation never throws for a semantic problem: it yields an {@link Unknown} that carries
 * the reason, the construct and its location, so a config fails only where the value is needed.
 */
public final class Evaluator {
  /** The name under which a splat's current element is bound; no identifier can spell it. */
  private static final String SPLAT_ITEM = "[*]";

  private final Scope scope;

  public Evaluator(Scope scope) {
    this.scope = scope;
  }

  public Object evaluate(Expression expression) {
    return new Run(expression.file()).eval(expression.node(), null);
  }

  /**
   * Renders {@code text} as a template in which {@code variables} are bound, as {@code
   * templatefile()} renders a file; other names and the functions come from the scope.
   *
   * @throws InvalidHcl when the text is not a valid template
   */
  public Object evaluateTemplate(String file, String text, Map<String, Object> variables) {
    Node template = Parser.parseTemplate(file, text);
    Bindings bindings = null;
    for (Map.Entry<String, Object> variable : variables.entrySet()) {
      bindings = new Bindings(variable.getKey(), variable.getValue(), bindings);
    }
    return new Run(file).eval(template, bindings);
  }

  /** The value as text, the way a template interpolates it. */
  public static Object asText(Object value, String file, int line) {
    if (value instanceof String || value instanceof Unknown) {
      return value;
    }
    if (value instanceof BigDecimal number) {
      return Values.numberText(number);
    }
    if (value instanceof Boolean) {
      return value.toString();
    }
    return Unknown.at(file, line, "expected a string, found " + describe(value));
  }

  public static String describe(Object value) {
    return Values.describe(value);
  }

  /** The symbols a for-expression, a template's for or a splat binds, innermost first. */
  private record Bindings(String name, Object value, Bindings outer) {
    static Bindings find(Bindings bindings, String name) {
      for (Bindings at = bindings; at != null; at = at.outer) {
        if (at.name.equals(name)) {
          return at;
        }
      }
      return null;
    }
  }

  private final class Run {
    private final String file;

    Run(String file) {
      this.file = file;
    }

    private Unknown problem(Node node, String problem) {
      return Unknown.at(file, node.position().line(), node.position().column(), problem);
    }

    Object eval(Node node, Bindings env) {
      try {
        return evalNode(node, env);
      } catch (ValueError e) {
        return problem(node, e.getMessage());
      }
    }

    private Object evalNode(Node node, Bindings env) {
      if (node instanceof Node.Literal literal) {
        return literal.value();
      }
      if (node instanceof Node.GetAttr get) {
        return getAttr(get, env);
      }
      if (node instanceof Node.Variable variable) {
        Bindings bound = Bindings.find(env, variable.name());
        if (bound != null) {
          return bound.value();
        }
        return scope.variable(variable.name(), file, variable.position().line());
      }
      if (node instanceof Node.Template template) {
        return template(template, env);
      }
      if (node instanceof Node.Call call) {
        return call(call, env);
      }
      if (node instanceof Node.Index index) {
        return index(index, env);
      }
      if (node instanceof Node.Tuple tuple) {
        List<Object> items = new ArrayList<>(tuple.items().size());
        for (Node item : tuple.items()) {
          items.add(eval(item, env));
        }
        return Collections.unmodifiableList(items);
      }
      if (node instanceof Node.ObjectCons object) {
        return object(object, env);
      }
      if (node instanceof Node.Conditional conditional) {
        Object condition = eval(conditional.condition(), env);
        if (condition instanceof Unknown) {
          return condition;
        }
        if (!(condition instanceof Boolean) && !(condition instanceof String)) {
          return problem(
              conditional,
              "the condition of a conditional expression must be a bool, found "
                  + describe(condition));
        }
        return Values.bool(condition)
            ? eval(conditional.whenTrue(), env)
            : eval(conditional.whenFalse(), env);
      }
      if (node instanceof Node.Binary binary) {
        return binary(binary, env);
      }
      if (node instanceof Node.Unary unary) {
        Object operand = eval(unary.operand(), env);
        if (operand instanceof Unknown) {
          return operand;
        }
        if (operand == null) {
          return problem(unary, "operator '" + unary.operator() + "' cannot take null");
        }
        return unary.operator().equals("!")
            ? !Values.bool(operand)
            : Values.number(operand).negate();
      }
      if (node instanceof Node.For forExpression) {
        return forExpression(forExpression, env);
      }
      if (node instanceof Node.Splat splat) {
        return splat(splat, env);
      }
      if (node instanceof Node.SplatItem) {
        return Bindings.find(env, SPLAT_ITEM).value();
      }
      return problem(node, "a template directive can only stand inside a template");
    }

    private Object getAttr(Node.GetAttr get, Bindings env) {
      Object target = eval(get.target(), env);
      if (target instanceof Unknown) {
        return target;
      }
      if (target instanceof Map<?, ?> map) {
        if (!map.containsKey(get.name())) {
          return problem(get, traversal(get) + " does not exist");
        }
        return map.get(get.name());
      }
      if (target instanceof List) {
        return problem(
            get,
            traversal(get)
                + ": a list has no attributes; use an index, or a splat such as [*]."
                + get.name());
      }
      return problem(get, traversal(get) + " cannot be taken from " + describe(target));
    }

    private Object index(Node.Index index, Bindings env) {
      Object target = eval(index.target(), env);
      if (target instanceof Unknown) {
        return target;
      }
      Object key = eval(index.key(), env);
      if (key instanceof Unknown) {
        return key;
      }
      if (key == null) {
        return problem(index, traversal(index) + ": an index cannot be null");
      }
      if (target instanceof Map<?, ?> map) {
        String name = Values.string(key);
        if (!map.containsKey(name)) {
          return problem(index, traversal(index) + ": the key \"" + name + "\" does not exist");
        }
        return map.get(name);
      }
      if (target instanceof List<?> list) {
        BigDecimal position = Values.number(key);
        if (!Values.isWhole(position)) {
          return problem(index, traversal(index) + ": an index must be a whole number");
        }
        if (position.signum() < 0 || position.compareTo(BigDecimal.valueOf(list.size())) >= 0) {
          return problem(
              index,
              traversal(index)
                  + ": index "
                  + Values.numberText(position)
                  + " is out of range for a list of "
                  + list.size());
        }
        return list.get(position.intValue());
      }
      return problem(index, traversal(index) + " cannot be taken from " + describe(target));
    }

    private Object template(Node.Template template, Bindings env) {
      List<Node> parts = template.parts();
      Node only = parts.size() == 1 ? parts.get(0) : null;
      if (only != null
          && !(only instanceof Node.Literal literal && literal.value() instanceof String)
          && !(only instanceof Node.TemplateIf)
          && !(only instanceof Node.TemplateFor)) {
        return eval(parts.get(0), env); // "${x}" is x itself, not converted to a string
      }
      StringBuilder text = new StringBuilder();
      Unknown unknown = render(parts, env, text);
      return unknown != null ? unknown : text.toString();
    }

    /** Appends the parts' text; returns the first unknown value met, or null. */
    private Unknown render(List<Node> parts, Bindings env, StringBuilder text) {
      for (Node part : parts) {
        if (part instanceof Node.Literal literal && literal.value() instanceof String literalText) {
          text.append(literalText);
        } else if (part instanceof Node.TemplateIf directive) {
          Object condition = eval(directive.condition(), env);
          if (condition instanceof Unknown unknown) {
            return unknown;
          }
          if (!(condition instanceof Boolean) && !(condition instanceof String)) {
            return problem(
                directive, "the condition of %{if} must be a bool, found " + describe(condition));
          }
          Unknown unknown =
              render(Values.bool(condition) ? directive.then() : directive.otherwise(), env, text);
          if (unknown != null) {
            return unknown;
          }
        } else if (part instanceof Node.TemplateFor directive) {
          Object collection = eval(directive.collection(), env);
          if (collection instanceof Unknown unknown) {
            return unknown;
          }
          List<Object[]> elements = elements(directive, collection);
          if (elements == null) {
            return problem(directive, "%{for} cannot iterate over " + describe(collection));
          }
          for (Object[] element : elements) {
            Bindings inner = bind(env, directive.key(), element[0], directive.value(), element[1]);
            Unknown unknown = render(directive.body(), inner, text);
            if (unknown != null) {
              return unknown;
            }
          }
        } else {
          Object value = eval(part, env);
          if (value instanceof Unknown unknown) {
            return unknown;
          }
          if (value == null) {
            return problem(part, "a template cannot interpolate null");
          }
          if (value instanceof List || value instanceof Map) {
            return problem(
                part,
                "a template can only interpolate a string, number or bool, found "
                    + describe(value));
          }
          text.append(Values.string(value));
        }
      }
      return null;
    }

    private Object call(Node.Call call, Bindings env) {
      List<Supplier<Object>> arguments = new ArrayList<>(call.arguments().size());
      List<Node> nodes = call.arguments();
      int plain = call.expandFinal() ? nodes.size() - 1 : nodes.size();
      for (int i = 0; i < plain; i++) {
        Node argument = nodes.get(i);
        arguments.add(() -> eval(argument, env));
      }
      if (call.expandFinal()) {
        Object last = eval(nodes.get(nodes.size() - 1), env);
        if (last instanceof Unknown) {
          return last;
        }
        if (!(last instanceof List<?> expanded)) {
          return problem(call, "the argument before '...' must be a list, found " + describe(last));
        }
        for (Object item : expanded) {
          arguments.add(() -> item);
        }
      }
      return scope.call(call.name(), arguments, file, call.position().line());
    }

    private Object object(Node.ObjectCons object, Bindings env) {
      Map<String, Object> entries = new TreeMap<>();
      for (Node.Item item : object.items()) {
        Object key = eval(item.key(), env);
        if (key instanceof Unknown) {
          return key;
        }
        if (key == null || key instanceof List || key instanceof Map) {
          return problem(item.key(), "an object key must be a string, found " + describe(key));
        }
        entries.put(Values.string(key), eval(item.value(), env));
      }
      return Collections.unmodifiableMap(entries);
    }

    private Object forExpression(Node.For node, Bindings env) {
      Object collection = eval(node.collection(), env);
      if (collection instanceof Unknown) {
        return collection;
      }
      List<Object[]> elements = elements(node, collection);
      if (elements == null) {
        return problem(node, "a for expression cannot iterate over " + describe(collection));
      }
      List<Object> items = new ArrayList<>();
      Map<String, Object> entries = new LinkedHashMap<>();
      for (Object[] element : elements) {
        Bindings inner = bind(env, node.keyVar(), element[0], node.valueVar(), element[1]);
        if (node.condition() != null) {
          Object condition = eval(node.condition(), inner);
          if (condition instanceof Unknown) {
            return condition;
          }
          if (!(condition instanceof Boolean) && !(condition instanceof String)) {
            return problem(
                node.condition(),
                "the 'if' of a for expression must be a bool, found " + describe(condition));
          }
          if (!Values.bool(condition)) {
            continue;
          }
        }
        if (node.key() == null) {
          items.add(eval(node.value(), inner));
          continue;
        }
        Object key = eval(node.key(), inner);
        if (key instanceof Unknown) {
          return key;
        }
        if (key == null || key instanceof List || key instanceof Map) {
          return problem(node.key(), "an object key must be a string, found " + describe(key));
        }
        String name = Values.string(key);
        Object value = eval(node.value(), inner);
        if (node.grouping()) {
          @SuppressWarnings("unchecked")
          List<Object> group = (List<Object>) entries.computeIfAbsent(name, k -> new ArrayList<>());
          group.add(value);
        } else if (entries.putIfAbsent(name, value) != null) {
          return problem(
              node.key(),
              "the key \""
                  + name
                  + "\" is produced twice; add '...' after the value to group values by key");
        }
      }
      if (node.key() == null) {
        return Collections.unmodifiableList(items);
      }
      if (node.grouping()) {
        entries.replaceAll((k, group) -> List.copyOf((List<?>) group));
      }
      return Values.object(entries);
    }

    /** A collection's [key, value] pairs: indexes for a list, sorted keys for a map. */
    private List<Object[]> elements(Node node, Object collection) {
      List<Object[]> elements = new ArrayList<>();
      if (collection instanceof List<?> list) {
        for (int i = 0; i < list.size(); i++) {
          elements.add(new Object[] {BigDecimal.valueOf(i), list.get(i)});
        }
        return elements;
      }
      if (collection instanceof Map<?, ?> map) {
        @SuppressWarnings("unchecked")
        Map<String, Object> object = (Map<String, Object>) map;
        for (String key : Values.sortedKeys(object)) {
          elements.add(new Object[] {key, object.get(key)});
        }
        return elements;
      }
      return null;
    }

    private Bindings bind(
        Bindings env, String keyName, Object key, String valueName, Object value) {
      Bindings inner = env;
      if (keyName != null) {
        inner = new Bindings(keyName, key, inner);
      }
      return new Bindings(valueName, value, inner);
    }

    private Object splat(Node.Splat splat, Bindings env) {
      Object source = eval(splat.source(), env);
      if (source instanceof Unknown) {
        return source;
      }
      if (source == null) {
        return List.of();
      }
      List<?> elements = source instanceof List<?> list ? list : List.of(source);
      List<Object> results = new ArrayList<>(elements.size());
      for (Object element : elements) {
        results.add(eval(splat.each(), new Bindings(SPLAT_ITEM, element, env)));
      }
      return Collections.unmodifiableList(results);
    }

    private Object binary(Node.Binary binary, Bindings env) {
      String operator = binary.operator();
      Object left = eval(binary.left(), env);
      Object right = eval(binary.right(), env);
      if (operator.equals("&&") || operator.equals("||")) {
        boolean shortValue = operator.equals("||");
        if (isBool(left, shortValue) || isBool(right, shortValue)) {
          return shortValue; // false && unknown is false, true || unknown is true
        }
      }
      if (left instanceof Unknown) {
        return left;
      }
      if (right instanceof Unknown) {
        return right;
      }
      switch (operator) {
        case "==":
          return Values.equal(left, right);
        case "!=":
          return !Values.equal(left, right);
        case "&&":
          return requireOperand(binary, left) && requireOperand(binary, right);
        case "||":
          return requireOperand(binary, left) || requireOperand(binary, right);
        default:
          break;
      }
      if (left == null || right == null) {
        return problem(binary, "operator '" + operator + "' cannot take null");
      }
      BigDecimal a = Values.number(left);
      BigDecimal b = Values.number(right);
      return switch (operator) {
        case "+" -> a.add(b);
        case "-" -> a.subtract(b);
        case "*" -> a.multiply(b);
        case "/" -> b.signum() == 0 ? problem(binary, "division by zero") : divide(a, b);
        case "%" -> b.signum() == 0 ? problem(binary, "division by zero") : a.remainder(b);
        case "<" -> a.compareTo(b) < 0;
        case ">" -> a.compareTo(b) > 0;
        case "<=" -> a.compareTo(b) <= 0;
        default -> a.compareTo(b) >= 0;
      };
    }

    private boolean isBool(Object value, boolean expected) {
      return value instanceof Boolean bool && bool == expected;
    }

    private boolean requireOperand(Node.Binary binary, Object operand) {
      if (operand == null) {
        throw new ValueError("operator '" + binary.operator() + "' cannot take null");
      }
      return Values.bool(operand);
    }

    /** Terminating quotients exactly; others as Terraform prints them, to float64 precision. */
    private BigDecimal divide(BigDecimal a, BigDecimal b) {
      try {
        return a.divide(b, MathContext.UNLIMITED);
      } catch (ArithmeticException repeating) {
        return new BigDecimal(Double.toString(a.doubleValue() / b.doubleValue()));
      }
    }

    /** How a traversal reads in the source, for messages: {@code local.a.b[0]}. */
    private String traversal(Node node) {
      if (node instanceof Node.Variable variable) {
        return variable.name();
      }
      if (node instanceof Node.GetAttr get) {
        return traversal(get.target()) + "." + get.name();
      }
      if (node instanceof Node.Index index) {
        String key =
            index.key() instanceof Node.Literal literal
                ? literal.value() instanceof String text
                    ? "\"" + text + "\""
                    : String.valueOf(
                        literal.value() instanceof BigDecimal number
                            ? Values.numberText(number)
                            : literal.value())
                : "...";
        return traversal(index.target()) + "[" + key + "]";
      }
      if (node instanceof Node.Splat splat) {
        return traversal(splat.source()) + (splat.full() ? "[*]" : ".*");
      }
      if (node instanceof Node.SplatItem) {
        return "";
      }
      if (node instanceof Node.Call call) {
        return call.name() + "(...)";
      }
      return "(...)";
    }
  }
}
