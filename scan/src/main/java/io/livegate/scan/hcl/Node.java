package io.livegate.scan.hcl;

import java.util.List;

/**
 * A node of an HCL native-syntax expression tree, as the HCL specification defines the expression
 * grammar. Every node knows where it starts; two trees are equal when they have the same shape and
 * values, wherever they stand in a file (see {@link Position}).
 */
public sealed interface Node {
  Position position();

  /**
   * Where a node starts: 1-based line and column. Positions take no part in equality, so a tree
   * printed and parsed again equals the original.
   */
  record Position(int line, int column) {
    @Override
    public boolean equals(Object other) {
      return other instanceof Position;
    }

    @Override
    public int hashCode() {
      return 0;
    }

    @Override
    public String toString() {
      return line + ":" + column;
    }
  }

  /** {@code 12}, {@code 1.5e3}, {@code true}, {@code null}, or a template of literal text only. */
  record Literal(Object value, Position position) implements Node {}

  /** A quoted or heredoc template with interpolations or directives. */
  record Template(List<Node> parts, Position position) implements Node {
    public Template {
      parts = List.copyOf(parts);
    }
  }

  /** {@code %{ if cond }...%{ else }...%{ endif }} inside a template. */
  record TemplateIf(Node condition, List<Node> then, List<Node> otherwise, Position position)
      implements Node {
    public TemplateIf {
      then = List.copyOf(then);
      otherwise = List.copyOf(otherwise);
    }
  }

  /** {@code %{ for k, v in coll }...%{ endfor }} inside a template; {@code key} may be null. */
  record TemplateFor(String key, String value, Node collection, List<Node> body, Position position)
      implements Node {
    public TemplateFor {
      body = List.copyOf(body);
    }
  }

  /** A root name: {@code local}, {@code var}, or a for-expression's symbol. */
  record Variable(String name, Position position) implements Node {}

  /** {@code target.name}. */
  record GetAttr(Node target, String name, Position position) implements Node {}

  /** {@code target[key]}, and the legacy {@code target.0}. */
  record Index(Node target, Node key, Position position) implements Node {}

  /**
   * {@code source[*].each} or {@code source.*.each}: {@code each} is applied to every element, with
   * {@link SplatItem} standing for the element.
   */
  record Splat(Node source, Node each, boolean full, Position position) implements Node {}

  /** The element a {@link Splat}'s traversal starts from. */
  record SplatItem(Position position) implements Node {}

  /** {@code name(arg, ...)}; {@code expandFinal} for {@code name(a, list...)}. */
  record Call(String name, List<Node> arguments, boolean expandFinal, Position position)
      implements Node {
    public Call {
      arguments = List.copyOf(arguments);
    }
  }

  /** {@code [a, b]}. */
  record Tuple(List<Node> items, Position position) implements Node {
    public Tuple {
      items = List.copyOf(items);
    }
  }

  /** {@code { key = value, (expr) = value }}; a bare identifier key is a string literal. */
  record ObjectCons(List<Item> items, Position position) implements Node {
    public ObjectCons {
      items = List.copyOf(items);
    }
  }

  /** One {@code key = value} of an object constructor. */
  record Item(Node key, Node value) {}

  /**
   * {@code [for k, v in coll : value if cond]} or {@code {for k, v in coll : key => value... if
   * cond}}; {@code keyVar}, {@code key} and {@code condition} may be null, {@code key} is null for
   * a tuple.
   */
  record For(
      String keyVar,
      String valueVar,
      Node collection,
      Node key,
      Node value,
      boolean grouping,
      Node condition,
      Position position)
      implements Node {}

  /** {@code cond ? a : b}. */
  record Conditional(Node condition, Node whenTrue, Node whenFalse, Position position)
      implements Node {}

  /** {@code left op right}; {@code op} as written, e.g. {@code "&&"}. */
  record Binary(String operator, Node left, Node right, Position position) implements Node {}

  /** {@code -x} or {@code !x}. */
  record Unary(String operator, Node operand, Position position) implements Node {}
}
