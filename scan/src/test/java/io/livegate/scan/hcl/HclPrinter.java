package io.livegate.scan.hcl;

import java.math.BigDecimal;
import java.util.List;
import java.util.stream.Collectors;

/** Writes an expression tree back as HCL native syntax, parenthesising where precedence needs. */
final class HclPrinter {
  private HclPrinter() {}

  static String print(Node node) {
    if (node instanceof Node.Literal literal) {
      Object value = literal.value();
      if (value instanceof String text) {
        return "\"" + escape(text) + "\"";
      }
      return value instanceof BigDecimal number ? number.toPlainString() : String.valueOf(value);
    }
    if (node instanceof Node.Template template) {
      return "\"" + parts(template.parts()) + "\"";
    }
    if (node instanceof Node.Variable variable) {
      return variable.name();
    }
    if (node instanceof Node.GetAttr get) {
      return target(get.target()) + "." + get.name();
    }
    if (node instanceof Node.Index index) {
      return target(index.target()) + "[" + print(index.key()) + "]";
    }
    if (node instanceof Node.Splat splat) {
      return target(splat.source()) + (splat.full() ? "[*]" : ".*") + print(splat.each());
    }
    if (node instanceof Node.SplatItem) {
      return "";
    }
    if (node instanceof Node.Call call) {
      return call.name()
          + "("
          + call.arguments().stream().map(HclPrinter::print).collect(Collectors.joining(", "))
          + (call.expandFinal() ? "..." : "")
          + ")";
    }
    if (node instanceof Node.Tuple tuple) {
      return "["
          + tuple.items().stream().map(HclPrinter::print).collect(Collectors.joining(", "))
          + "]";
    }
    if (node instanceof Node.ObjectCons object) {
      return "{"
          + object.items().stream()
              .map(item -> key(item.key()) + " = " + print(item.value()))
              .collect(Collectors.joining(", "))
          + "}";
    }
    if (node instanceof Node.For forExpression) {
      return forExpression(forExpression);
    }
    if (node instanceof Node.Conditional conditional) {
      return operand(conditional.condition())
          + " ? "
          + operand(conditional.whenTrue())
          + " : "
          + operand(conditional.whenFalse());
    }
    if (node instanceof Node.Binary binary) {
      return operand(binary.left()) + " " + binary.operator() + " " + operand(binary.right());
    }
    if (node instanceof Node.Unary unary) {
      return unary.operator() + operand(unary.operand());
    }
    throw new IllegalArgumentException("a directive stands only inside a template: " + node);
  }

  private static String forExpression(Node.For node) {
    String symbols = (node.keyVar() == null ? "" : node.keyVar() + ", ") + node.valueVar();
    String intro = "for " + symbols + " in " + operand(node.collection()) + " : ";
    String condition = node.condition() == null ? "" : " if " + operand(node.condition());
    if (node.key() == null) {
      return "[" + intro + operand(node.value()) + condition + "]";
    }
    return "{"
        + intro
        + operand(node.key())
        + " => "
        + operand(node.value())
        + (node.grouping() ? "..." : "")
        + condition
        + "}";
  }

  private static String key(Node key) {
    if (key instanceof Node.Literal literal
        && literal.value() instanceof String name
        && name.matches("[a-z_][a-z0-9_-]*")
        && !name.equals("for")) {
      return name;
    }
    return key instanceof Node.Literal literal && literal.value() instanceof String
        ? print(key)
        : "(" + print(key) + ")";
  }

  /** An operand of an operator or a for: operations in parentheses. */
  private static String operand(Node node) {
    return node instanceof Node.Binary || node instanceof Node.Conditional
        ? "(" + print(node) + ")"
        : print(node);
  }

  /** The target of a traversal: anything but a name, a call or a collection in parentheses. */
  private static String target(Node node) {
    boolean term =
        node instanceof Node.Variable
            || node instanceof Node.SplatItem
            || node instanceof Node.GetAttr
            || node instanceof Node.Index
            || node instanceof Node.Call
            || node instanceof Node.Tuple
            || node instanceof Node.ObjectCons
            || node instanceof Node.For
            || node instanceof Node.Template
            || (node instanceof Node.Literal literal && literal.value() instanceof String);
    return term ? print(node) : "(" + print(node) + ")";
  }

  private static String parts(List<Node> parts) {
    StringBuilder out = new StringBuilder();
    for (Node part : parts) {
      if (part instanceof Node.Literal literal && literal.value() instanceof String text) {
        out.append(escape(text));
      } else if (part instanceof Node.TemplateIf directive) {
        out.append("%{ if ").append(print(directive.condition())).append(" }");
        out.append(parts(directive.then()));
        if (!directive.otherwise().isEmpty()) {
          out.append("%{ else }").append(parts(directive.otherwise()));
        }
        out.append("%{ endif }");
      } else if (part instanceof Node.TemplateFor directive) {
        out.append("%{ for ")
            .append(directive.key() == null ? "" : directive.key() + ", ")
            .append(directive.value())
            .append(" in ")
            .append(print(directive.collection()))
            .append(" }")
            .append(parts(directive.body()))
            .append("%{ endfor }");
      } else {
        out.append("${").append(print(part)).append("}");
      }
    }
    return out.toString();
  }

  private static String escape(String text) {
    StringBuilder out = new StringBuilder();
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      switch (c) {
        case '"' -> out.append("\\\"");
        case '\\' -> out.append("\\\\");
        case '\n' -> out.append("\\n");
        case '\r' -> out.append("\\r");
        case '\t' -> out.append("\\t");
        case '$', '%' ->
            out.append(c)
                .append(
                    i + 1 < text.length() && text.charAt(i + 1) == '{' ? String.valueOf(c) : "");
        default -> out.append(c);
      }
    }
    return out.toString();
  }
}
