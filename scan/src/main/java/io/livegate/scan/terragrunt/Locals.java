package io.livegate.scan.terragrunt;

import io.livegate.scan.hcl.Attribute;
import io.livegate.scan.hcl.Block;
import io.livegate.scan.hcl.Evaluator;
import io.livegate.scan.hcl.HclDocument;
import io.livegate.scan.hcl.InvalidHcl;
import io.livegate.scan.hcl.Unknown;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * A config's {@code locals} (terragrunt's locals.go): every {@code locals} block's attributes, each
 * evaluated on first use and once, so a local whose value cannot be known matters only where it is
 * used; a local that refers to itself is an unknown value that says so.
 */
final class Locals {
  private final HclDocument document;
  private final Evaluator evaluator;
  private final Map<String, Attribute> definitions = new LinkedHashMap<>();
  private final Map<String, Object> values = new HashMap<>();
  private final Set<String> inProgress = new HashSet<>();

  Locals(HclDocument document, Evaluator evaluator) {
    this.document = document;
    this.evaluator = evaluator;
    for (Block locals : document.blocks("locals")) {
      for (Attribute local : locals.attributes().values()) {
        Attribute earlier = definitions.putIfAbsent(local.name(), local);
        if (earlier != null) {
          throw new InvalidHcl(
              document.file(),
              local.line(),
              "local '" + local.name() + "' is already defined on line " + earlier.line());
        }
      }
    }
  }

  Set<String> names() {
    return definitions.keySet();
  }

  /** {@code local} as HCL reads it: each local evaluated when it is first read. */
  Map<String, Object> asVariable() {
    return new LazyMap(definitions.keySet(), this::value);
  }

  Object value(String name) {
    if (values.containsKey(name)) {
      return values.get(name);
    }
    Attribute definition = definitions.get(name);
    if (!inProgress.add(name)) {
      return Unknown.at(document.file(), definition.line(), "local." + name + " refers to itself");
    }
    Object value = evaluator.evaluate(definition.value());
    inProgress.remove(name);
    values.put(name, value);
    return value;
  }
}
