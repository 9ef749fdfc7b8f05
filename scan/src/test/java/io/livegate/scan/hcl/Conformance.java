package io.livegate.scan.hcl;

import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/** Evaluates one expression the way a config attribute is evaluated, for the conformance tables. */
final class Conformance {
  static final String FILE = "live/app/terragrunt.hcl";

  /** {@code local} for the tables: strings, a list of objects, an object, a null, a bool. */
  static final Map<String, Object> LOCALS =
      Map.of(
          "name",
          "app",
          "deps",
          List.of("vpc", "db"),
          "prod",
          Boolean.TRUE,
          "count",
          new BigDecimal(3),
          "obj",
          Map.of("id", "solo"),
          "list",
          List.of(
              Map.of("id", "a", "tags", Map.of("name", "x")),
              Map.of("id", "b", "tags", Map.of("name", "y"))));

  private static final Scope SCOPE =
      new Scope() {
        @Override
        public Object variable(String name, String file, int line) {
          if (name.equals("local")) {
            java.util.Map<String, Object> locals = new java.util.HashMap<>(LOCALS);
            locals.put("nothing", null);
            return locals;
          }
          return Unknown.at(file, line, "no variable '" + name + "' here");
        }

        @Override
        public Object call(
            String function, List<Supplier<Object>> arguments, String file, int line) {
          return StandardFunctions.call(function, arguments, file, line);
        }
      };

  private Conformance() {}

  /** The value of {@code expression} written as an attribute in a file. */
  static Object evaluate(String expression) {
    HclDocument document = HclDocument.parse(FILE, "x = " + expression + "\n");
    return new Evaluator(SCOPE).evaluate(document.attribute("x").orElseThrow().value());
  }

  /** The value as Terraform's jsonencode writes it, or the reason it is unknown. */
  static String json(Object value) {
    Unknown unknown = Values.firstUnknown(value);
    return unknown != null ? "unknown: " + unknown.reason() : EncodingFunctions.json(value);
  }
}
