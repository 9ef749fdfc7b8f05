package io.livegate.core.hcl;

import com.bertramlabs.plugins.hcl4j.RuntimeSymbols.Function;
import com.bertramlabs.plugins.hcl4j.RuntimeSymbols.GroupedExpression;
import com.bertramlabs.plugins.hcl4j.RuntimeSymbols.Operator;
import com.bertramlabs.plugins.hcl4j.RuntimeSymbols.StringInterpolatedExpression;
import com.bertramlabs.plugins.hcl4j.RuntimeSymbols.Variable;
import com.bertramlabs.plugins.hcl4j.RuntimeSymbols.VariableTree;
import com.bertramlabs.plugins.hcl4j.symbols.HCLArray;
import com.bertramlabs.plugins.hcl4j.symbols.HCLAttribute;
import com.bertramlabs.plugins.hcl4j.symbols.HCLBlock;
import com.bertramlabs.plugins.hcl4j.symbols.HCLValue;
import com.bertramlabs.plugins.hcl4j.symbols.Symbol;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * Gives an {@link Expression} a value. Values are plain Java: {@link String}, {@link BigDecimal},
 * {@link Boolean}, {@link List}, {@link Map}, {@code null}, or an {@link Unknown}. Evaluation never
 * throws for a semantic problem: it yields an {@link Unknown} that carries the reason, so a config
 * fails only where the value is needed.
 */
public final class Evaluator {
  private final Scope scope;

  public Evaluator(Scope scope) {
    this.scope = scope;
  }

  public Object evaluate(Expression expression) {
    return sequence(expression.file(), expression.symbols());
  }

  /** The 1-based line of a symbol (hcl4j counts from 0). */
  static int lineOf(Symbol symbol) {
    Integer line = symbol.getLine();
    return line == null ? 0 : line + 1;
  }

  /** The value as text, the way a template interpolates it. */
  public static Object asText(Object value, String file, int line) {
    if (value instanceof String || value instanceof Unknown) {
      return value;
    }
    if (value instanceof BigDecimal number) {
      return number.stripTrailingZeros().toPlainString();
    }
    if (value instanceof Boolean) {
      return value.toString();
    }
    return Unknown.at(file, line, "expected a string, found " + describe(value));
  }

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
    return "'" + value + "'";
  }

  private Object sequence(String file, List<Symbol> symbols) {
    if (symbols.isEmpty()) {
      return null;
    }
    if (symbols.size() == 1) {
      return symbol(file, symbols.get(0));
    }
    return new OperatorParser(file, symbols).parse();
  }

  private Object symbol(String file, Symbol symbol) {
    int line = lineOf(symbol);
    if (symbol instanceof HCLValue value) {
      return literal(file, value);
    }
    if (symbol instanceof StringInterpolatedExpression template) {
      return template(file, template);
    }
    if (symbol instanceof VariableTree tree) {
      return traversal(file, tree);
    }
    if (symbol instanceof Function function) {
      return call(file, function);
    }
    if (symbol instanceof Variable variable) {
      return scope.variable(variable.getName(), file, line);
    }
    if (symbol instanceof GroupedExpression group) {
      return sequence(file, group.getChildren());
    }
    if (symbol instanceof HCLArray array) {
      return tuple(file, array.getChildren());
    }
    if (symbol instanceof HCLBlock object) {
      return object(file, object);
    }
    return Unknown.at(
        file, line, "livegate does not evaluate " + symbol.getSymbolName() + " expressions here");
  }

  private static Object literal(String file, HCLValue value) {
    return switch (value.type) {
      case "string" -> unescapeTemplate(String.valueOf(value.value));
      case "boolean" -> Boolean.valueOf(String.valueOf(value.value));
      case "null" -> null;
      case "number" -> {
        try {
          yield new BigDecimal(String.valueOf(value.value));
        } catch (NumberFormatException e) {
          yield Unknown.at(file, lineOf(value), "not a number: " + value.value);
        }
      }
      default -> Unknown.at(file, lineOf(value), "unrecognised literal " + value.value);
    };
  }

  /**
   * The literal text of a string or template part. hcl4j leaves the escapes {@code $${} and {@code
   * %%{} as written, but in HCL they stand for a literal {@code ${} and {@code %{}, so a path such
   * as {@code "$${x}"} would otherwise keep both dollars.
   */
  private static String unescapeTemplate(String text) {
    return text.replace("$${", "${").replace("%%{", "%{");
  }

  /** A quoted template: literal parts and {@code ${...}} parts, joined by hcl4j's "+" markers. */
  private Object template(String file, StringInterpolatedExpression template) {
    StringBuilder text = new StringBuilder();
    for (Symbol part : template.getChildren()) {
      if (part instanceof Operator) {
        continue;
      }
      Object value =
          part instanceof StringInterpolatedExpression interpolation
              ? sequence(file, interpolation.getChildren())
              : symbol(file, part);
      Object rendered = asText(value, file, lineOf(part));
      if (rendered instanceof Unknown) {
        return rendered;
      }
      text.append(rendered);
    }
    return text.toString();
  }

  private Object tuple(String file, List<Symbol> children) {
    List<Object> items = new ArrayList<>();
    List<Symbol> current = new ArrayList<>();
    for (Symbol child : children) {
      boolean continuesExpression =
          !current.isEmpty()
              && (child instanceof Operator || current.get(current.size() - 1) instanceof Operator);
      if (!current.isEmpty() && !continuesExpression) {
        items.add(sequence(file, current));
        current = new ArrayList<>();
      }
      current.add(child);
    }
    if (!current.isEmpty()) {
      items.add(sequence(file, current));
    }
    return Collections.unmodifiableList(items);
  }

  private Object object(String file, HCLBlock object) {
    Map<String, Object> entries = new LinkedHashMap<>();
    for (Symbol child : object.getChildren()) {
      if (child instanceof HCLAttribute attribute) {
        entries.put(attribute.getName(), sequence(file, attribute.getChildren()));
      } else if (child instanceof HCLBlock nested) {
        entries.put(nested.getName(), object(file, nested));
      }
    }
    return Collections.unmodifiableMap(entries);
  }

  /** {@code root.attr[index].attr}, where the root is a name or a function call. */
  private Object traversal(String file, VariableTree tree) {
    List<Symbol> steps = tree.getChildren();
    if (steps.isEmpty()) {
      return Unknown.at(file, lineOf(tree), "empty reference");
    }
    Symbol first = steps.get(0);
    Object current =
        first instanceof Function function
            ? call(file, function)
            : scope.variable(first.getName(), file, lineOf(first));
    String path = first.getName();
    for (Symbol step : steps.subList(1, steps.size())) {
      if (current instanceof Unknown) {
        return current;
      }
      Object key;
      if (step instanceof HCLArray index) {
        key = index.getChildren().isEmpty() ? null : sequence(file, index.getChildren());
        if (key instanceof Unknown) {
          return key;
        }
        path += "[" + key + "]";
      } else {
        key = step.getName();
        path += "." + key;
      }
      current = index(current, key, file, lineOf(step), path);
    }
    return current;
  }

  private static Object index(Object container, Object key, String file, int line, String path) {
    if (container instanceof Map<?, ?> map) {
      Object name = key instanceof BigDecimal number ? asText(number, file, line) : key;
      if (!map.containsKey(name)) {
        return Unknown.at(file, line, path + " does not exist");
      }
      return map.get(name);
    }
    if (container instanceof List<?> list) {
      Object position = key instanceof String text ? parseIndex(text) : key;
      if (position instanceof BigDecimal number) {
        int at = number.intValue();
        if (at >= 0 && at < list.size()) {
          return list.get(at);
        }
      }
      return Unknown.at(file, line, path + " is out of range");
    }
    return Unknown.at(file, line, path + " cannot be taken from " + describe(container));
  }

  private static Object parseIndex(String text) {
    try {
      return new BigDecimal(text);
    } catch (NumberFormatException e) {
      return text;
    }
  }

  private Object call(String file, Function function) {
    List<Supplier<Object>> arguments = new ArrayList<>();
    for (Symbol argument : function.getChildren()) {
      arguments.add(() -> symbol(file, argument));
    }
    return scope.call(function.getName(), arguments, file, lineOf(function));
  }

  /** Precedence climbing over hcl4j's flat operand/operator sequence. */
  private final class OperatorParser {
    private final String file;
    private final List<Symbol> tokens;
    private int position;

    OperatorParser(String file, List<Symbol> tokens) {
      this.file = file;
      this.tokens = tokens;
    }

    Object parse() {
      Object result = conditional();
      if (position < tokens.size()) {
        return Unknown.at(
            file,
            lineOf(tokens.get(position)),
            "unexpected '" + tokens.get(position).getName() + "'");
      }
      return result;
    }

    private Object conditional() {
      Object condition = binary(0);
      if (!atOperator("?")) {
        return condition;
      }
      int line = lineOf(tokens.get(position++));
      Object whenTrue = conditional();
      if (!atOperator(":")) {
        return Unknown.at(file, line, "conditional expression is missing ':'");
      }
      position++;
      Object whenFalse = conditional();
      if (condition instanceof Unknown) {
        return condition;
      }
      if (!(condition instanceof Boolean chosen)) {
        return Unknown.at(
            file, line, "condition must be true or false, found " + describe(condition));
      }
      return chosen ? whenTrue : whenFalse;
    }

    private static final List<List<String>> LEVELS =
        List.of(
            List.of("||"),
            List.of("&&"),
            List.of("==", "!="),
            List.of("<", ">", "<=", ">="),
            List.of("+", "-"),
            List.of("*", "/", "%"));

    private Object binary(int level) {
      if (level == LEVELS.size()) {
        return unary();
      }
      Object left = binary(level + 1);
      while (position < tokens.size()
          && tokens.get(position) instanceof Operator operator
          && LEVELS.get(level).contains(operator.getName())) {
        position++;
        Object right = binary(level + 1);
        left = apply(operator.getName(), left, right, lineOf(operator));
      }
      return left;
    }

    private Object unary() {
      if (position >= tokens.size()) {
        return Unknown.at(file, lineOf(tokens.get(tokens.size() - 1)), "expression ends too early");
      }
      Symbol token = tokens.get(position);
      if (token instanceof Operator operator) {
        position++;
        Object operand = unary();
        int line = lineOf(operator);
        return switch (operator.getName()) {
          case "!" -> operand instanceof Boolean value ? !value : typeError("!", operand, line);
          case "-" ->
              operand instanceof BigDecimal value ? value.negate() : typeError("-", operand, line);
          default -> Unknown.at(file, line, "unexpected '" + operator.getName() + "'");
        };
      }
      position++;
      return symbol(file, token);
    }

    private Object apply(String operator, Object left, Object right, int line) {
      if (left instanceof Unknown) {
        return left;
      }
      if (right instanceof Unknown) {
        return right;
      }
      switch (operator) {
        case "==":
          return equal(left, right);
        case "!=":
          return !equal(left, right);
        case "&&", "||":
          if (left instanceof Boolean a && right instanceof Boolean b) {
            return operator.equals("&&") ? a && b : a || b;
          }
          return typeError(operator, left, line);
        default:
          break;
      }
      if (!(left instanceof BigDecimal a) || !(right instanceof BigDecimal b)) {
        return typeError(operator, left instanceof BigDecimal ? right : left, line);
      }
      return switch (operator) {
        case "+" -> a.add(b);
        case "-" -> a.subtract(b);
        case "*" -> a.multiply(b);
        case "/" ->
            b.signum() == 0
                ? Unknown.at(file, line, "division by zero")
                : a.divide(b, java.math.MathContext.DECIMAL64);
        case "%" -> b.signum() == 0 ? Unknown.at(file, line, "division by zero") : a.remainder(b);
        case "<" -> a.compareTo(b) < 0;
        case ">" -> a.compareTo(b) > 0;
        case "<=" -> a.compareTo(b) <= 0;
        default -> a.compareTo(b) >= 0;
      };
    }

    private boolean equal(Object left, Object right) {
      if (left instanceof BigDecimal a && right instanceof BigDecimal b) {
        return a.compareTo(b) == 0;
      }
      return Objects.equals(left, right);
    }

    private Unknown typeError(String operator, Object operand, int line) {
      return Unknown.at(file, line, "operator '" + operator + "' cannot take " + describe(operand));
    }

    private boolean atOperator(String name) {
      return position < tokens.size()
          && tokens.get(position) instanceof Operator operator
          && operator.getName().equals(name);
    }
  }
}
