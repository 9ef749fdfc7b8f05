package io.livegate.scan.hcl;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/**
 * livegate's HCL reader against the native syntax as hashicorp/hcl defines it: the cases in
 * conformance-cases.txt, each written from a fact of hcl's specification suite (specsuite/tests) or
 * hclsyntax's parser tests and naming it. A case that differs fails the test unless the file
 * documents it as a deviation, and a documented deviation that no longer differs fails it too, so
 * the list stays true. The test prints how many cases pass.
 */
class HclSpecConformanceTest {
  private static final String FILE = "spec.hcl";

  /** The variables the cases' templates read. */
  private static final Map<String, Object> VARIABLES = Map.of("bar", "Bar", "space_bar", "  Bar");

  private static final Scope SCOPE =
      new Scope() {
        @Override
        public Object variable(String name, String file, int line) {
          Object value = VARIABLES.get(name);
          return value != null ? value : Unknown.at(file, line, "no variable '" + name + "'");
        }

        @Override
        public Object call(
            String function, List<Supplier<Object>> arguments, String file, int line) {
          return StandardFunctions.call(function, arguments, file, line);
        }
      };

  record Case(String name, String source, String deviation, String input, List<String> expect) {}

  @Test
  void readerAgreesWithHclOnEveryCaseExceptTheDocumentedDeviations() throws IOException {
    List<Case> cases = cases();
    List<String> differences = new ArrayList<>();
    List<String> staleDeviations = new ArrayList<>();
    int passed = 0;
    int deviations = 0;
    for (Case c : cases) {
      String difference = check(c);
      if (difference == null) {
        passed++;
        if (c.deviation() != null) {
          staleDeviations.add(c.name() + ": documented as a deviation but now agrees");
        }
      } else if (c.deviation() != null) {
        deviations++;
      } else {
        differences.add(c.name() + " (" + c.source() + "): " + difference);
      }
    }
    System.out.println(
        "HCL conformance: "
            + passed
            + " of "
            + cases.size()
            + " cases pass, "
            + deviations
            + " documented deviations, "
            + differences.size()
            + " differences");
    assertThat(cases).hasSizeGreaterThan(50);
    assertThat(differences).isEmpty();
    assertThat(staleDeviations).isEmpty();
  }

  /** What differs from the expectation, or null when the reader agrees. */
  private static String check(Case c) {
    HclDocument document;
    try {
      document = HclDocument.parse(FILE, c.input());
    } catch (InvalidHcl e) {
      String first = c.expect().get(0);
      if (!first.startsWith("error")) {
        return "rejected: " + e.getMessage();
      }
      String where = first.substring("error".length()).strip();
      if (where.isEmpty()) {
        return null;
      }
      String[] lineAndColumn = where.split(":");
      boolean sameLine = e.line() == Integer.parseInt(lineAndColumn[0]);
      boolean sameColumn =
          lineAndColumn.length < 2 || e.column() == Integer.parseInt(lineAndColumn[1]);
      return sameLine && sameColumn
          ? null
          : "rejected at " + e.line() + ":" + e.column() + ", HCL at " + where;
    }
    for (String expectation : c.expect()) {
      if (expectation.startsWith("error")) {
        return "accepted, HCL rejects it (" + expectation + ")";
      }
      if (expectation.startsWith("value ")) {
        String[] pathAndJson = expectation.substring("value ".length()).split(" = ", 2);
        String actual = json(document, pathAndJson[0]);
        if (!Objects.equals(actual, pathAndJson[1])) {
          return pathAndJson[0] + " is " + actual + ", HCL gives " + pathAndJson[1];
        }
      }
    }
    return null;
  }

  private static String json(HclDocument document, String path) {
    String[] parts = path.split("/");
    List<Block> blocks = document.blocks();
    Map<String, Attribute> attributes = document.attributes();
    for (int i = 0; i < parts.length - 1; i++) {
      String type = parts[i];
      Block block = blocks.stream().filter(b -> b.type().equals(type)).findFirst().orElse(null);
      if (block == null) {
        return "no block " + type;
      }
      blocks = block.blocks();
      attributes = block.attributes();
    }
    Attribute attribute = attributes.get(parts[parts.length - 1]);
    if (attribute == null) {
      return "no attribute " + parts[parts.length - 1];
    }
    Object value = new Evaluator(SCOPE).evaluate(attribute.value());
    Unknown unknown = Values.firstUnknown(value);
    return unknown != null ? "unknown: " + unknown.reason() : EncodingFunctions.json(value);
  }

  private static List<Case> cases() throws IOException {
    String text;
    try (InputStream in =
        HclSpecConformanceTest.class.getResourceAsStream("conformance-cases.txt")) {
      text = new String(Objects.requireNonNull(in).readAllBytes(), StandardCharsets.UTF_8);
    }
    List<Case> cases = new ArrayList<>();
    String[] lines = text.split("\n", -1);
    int i = 0;
    while (i < lines.length) {
      if (!lines[i].startsWith("=== ")) {
        i++;
        continue;
      }
      String name = lines[i++].substring(4);
      String source = null;
      String deviation = null;
      while (!lines[i].equals("--- input")) {
        if (lines[i].startsWith("source: ")) {
          source = lines[i].substring("source: ".length());
        } else if (lines[i].startsWith("deviation: ")) {
          deviation = lines[i].substring("deviation: ".length());
        }
        i++;
      }
      i++;
      List<String> input = new ArrayList<>();
      while (!lines[i].equals("--- expect")) {
        input.add(lines[i++]);
      }
      i++;
      List<String> expect = new ArrayList<>();
      while (i < lines.length && !lines[i].isEmpty()) {
        expect.add(lines[i++]);
      }
      String joined = String.join("\n", input);
      joined = joined.endsWith("\\") ? joined.substring(0, joined.length() - 1) : joined + "\n";
      cases.add(new Case(name, source, deviation, joined, expect));
    }
    return cases;
  }
}
