package io.livegate.scan.hcl;

import static org.assertj.core.api.Assertions.assertThat;

import io.livegate.scan.hcl.Node.Position;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * parse(print(tree)) == tree for generated expression trees covering every construct: the parser
 * reads what the grammar allows, precedence included, and keeps every value.
 */
class RoundTripPropertyTest {
  private static final Position AT = new Position(0, 0);
  private static final List<String> NAMES = List.of("a", "local", "x_1", "my-var", "each");
  private static final List<String> FUNCTIONS =
      List.of("upper", "max", "f", "provider::aws::arn_parse");
  private static final List<String> OPERATORS =
      List.of("||", "&&", "==", "!=", "<", ">", "<=", ">=", "+", "-", "*", "/", "%");
  private static final List<String> TEXTS =
      List.of(
          "a",
          "hello world",
          "quote \" and \\ back",
          "line\nbreak\ttab",
          "é 😀",
          "${not}",
          "%{ if x }",
          "50$",
          "100%",
          "-");

  private final Random random = new Random(20261125L);

  @Test
  void printedTreeParsesBackToTheSameTree() {
    for (int i = 0; i < 3000; i++) {
      Node tree = expression(4);
      String printed = HclPrinter.print(tree);

      Node parsed;
      try {
        parsed =
            HclDocument.parse("generated.hcl", "x = " + printed + "\n")
                .attribute("x")
                .orElseThrow()
                .value()
                .node();
      } catch (InvalidHcl e) {
        throw new AssertionError(e.getMessage() + " in: x = " + printed, e);
      }

      assertThat(parsed).as(printed).isEqualTo(tree);
    }
  }

  private Node expression(int depth) {
    int choice = depth <= 0 ? random.nextInt(3) : random.nextInt(15);
    return switch (choice) {
      case 0 -> literal();
      case 1 -> new Node.Variable(pick(NAMES), AT);
      case 2 -> new Node.Literal(pick(TEXTS), AT);
      case 3 -> traversal(depth);
      case 4 -> template(depth);
      case 5 -> {
        List<Node> arguments = list(depth, 3);
        yield new Node.Call(
            pick(FUNCTIONS), arguments, !arguments.isEmpty() && random.nextInt(4) == 0, AT);
      }
      case 6 -> new Node.Tuple(list(depth, 3), AT);
      case 7 -> object(depth);
      case 8 -> forExpression(depth);
      case 9 ->
          new Node.Conditional(
              expression(depth - 1), expression(depth - 1), expression(depth - 1), AT);
      case 10, 11 ->
          new Node.Binary(pick(OPERATORS), expression(depth - 1), expression(depth - 1), AT);
      case 12 -> new Node.Unary(random.nextBoolean() ? "-" : "!", expression(depth - 1), AT);
      case 13 -> splat(depth);
      default -> new Node.Index(traversal(depth), expression(depth - 1), AT);
    };
  }

  private Node literal() {
    return switch (random.nextInt(5)) {
      case 0 -> new Node.Literal(Boolean.TRUE, AT);
      case 1 -> new Node.Literal(null, AT);
      case 2 -> new Node.Literal(new BigDecimal("1.50"), AT);
      default -> new Node.Literal(BigDecimal.valueOf(random.nextInt(1000)), AT);
    };
  }

  private Node traversal(int depth) {
    Node node = new Node.Variable(pick(NAMES), AT);
    int steps = 1 + random.nextInt(3);
    for (int i = 0; i < steps; i++) {
      node =
          random.nextBoolean()
              ? new Node.GetAttr(node, pick(NAMES), AT)
              : new Node.Index(node, depth > 0 ? expression(depth - 1) : literal(), AT);
    }
    return node;
  }

  private Node splat(int depth) {
    boolean full = random.nextBoolean();
    Node each = new Node.SplatItem(AT);
    for (int i = random.nextInt(3); i > 0; i--) {
      each =
          full && random.nextBoolean()
              ? new Node.Index(each, literal(), AT)
              : new Node.GetAttr(each, pick(NAMES), AT);
    }
    return new Node.Splat(traversal(depth - 1), each, full, AT);
  }

  private Node template(int depth) {
    return new Node.Template(parts(depth, true), AT);
  }

  /** Template parts: never two literals side by side, and (when required) not only a literal. */
  private List<Node> parts(int depth, boolean needsExpression) {
    List<Node> parts = new ArrayList<>();
    int count = (needsExpression ? 1 : 0) + random.nextInt(4);
    boolean lastWasLiteral = false;
    boolean hasExpression = false;
    for (int i = 0; i < count; i++) {
      if (!lastWasLiteral && random.nextBoolean()) {
        parts.add(new Node.Literal(pick(List.of("a", "../", "x y", "é", "\"q\"")), AT));
        lastWasLiteral = true;
        continue;
      }
      lastWasLiteral = false;
      hasExpression = true;
      parts.add(
          switch (depth <= 1 ? 0 : random.nextInt(4)) {
            case 1 ->
                new Node.TemplateIf(
                    expression(depth - 2), parts(depth - 2, false), parts(depth - 2, false), AT);
            case 2 ->
                new Node.TemplateFor(
                    random.nextBoolean() ? "k" : null,
                    "v",
                    expression(depth - 2),
                    parts(depth - 2, false),
                    AT);
            default -> interpolated(depth - 1);
          });
    }
    if (needsExpression && !hasExpression) {
      parts.add(interpolated(depth - 1));
    }
    return parts;
  }

  /** An interpolated expression; a string literal there would be literal text. */
  private Node interpolated(int depth) {
    Node node = expression(depth);
    return node instanceof Node.Literal literal && literal.value() instanceof String
        ? new Node.Variable(pick(NAMES), AT)
        : node;
  }

  private Node object(int depth) {
    List<Node.Item> items = new ArrayList<>();
    for (int i = random.nextInt(3); i > 0; i--) {
      Node key =
          switch (random.nextInt(3)) {
            case 0 -> new Node.Literal(pick(List.of("name", "x-y", "for_each", "in")), AT);
            case 1 -> new Node.Literal(pick(TEXTS), AT);
            default -> expression(depth - 1);
          };
      items.add(new Node.Item(key, expression(depth - 1)));
    }
    return new Node.ObjectCons(items, AT);
  }

  private Node forExpression(int depth) {
    boolean object = random.nextBoolean();
    return new Node.For(
        random.nextBoolean() ? "k" : null,
        "v",
        expression(depth - 1),
        object ? expression(depth - 1) : null,
        expression(depth - 1),
        object && random.nextBoolean(),
        random.nextBoolean() ? expression(depth - 1) : null,
        AT);
  }

  private List<Node> list(int depth, int max) {
    List<Node> items = new ArrayList<>();
    for (int i = random.nextInt(max + 1); i > 0; i--) {
      items.add(expression(depth - 1));
    }
    return items;
  }

  private <T> T pick(List<T> values) {
    return values.get(random.nextInt(values.size()));
  }
}
