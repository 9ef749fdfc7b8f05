package io.livegate.scan.terragrunt;

import io.livegate.scan.hcl.Attribute;
import io.livegate.scan.hcl.Block;
import io.livegate.scan.hcl.Unknown;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A unit's {@code feature} blocks (terragrunt's feature flags): the {@code feature} variable, each
 * flag's {@code value} being its {@code default} unless the environment livegate was given sets it
 * through {@value #VARIABLE} ({@code name=value,...}, as terragrunt reads {@code --feature}). Flags
 * of included files count, the unit's own winning.
 */
final class Features {
  /** The environment variable terragrunt reads feature values from. */
  static final String VARIABLE = "TG_FEATURE";

  private Features() {}

  static Object variable(ConfigEvaluation unit) {
    Map<String, String> overrides = overrides(unit.reader().environment().get(VARIABLE));
    Map<String, ConfigEvaluation> declaring = new LinkedHashMap<>();
    Map<String, Block> blocks = new LinkedHashMap<>();
    for (Includes.Include include : unit.includes().all()) {
      declare(include.config(), declaring, blocks);
    }
    declare(unit, declaring, blocks);
    return new LazyMap(
        blocks.keySet(),
        name -> {
          Block block = blocks.get(name);
          Object value =
              overrides.containsKey(name)
                  ? parse(overrides.get(name))
                  : block
                      .attribute("default")
                      .map(Attribute::value)
                      .map(declaring.get(name)::evaluate)
                      .orElseGet(
                          () ->
                              Unknown.at(
                                  declaring.get(name).document().file(),
                                  block.line(),
                                  "feature \"" + name + "\" has no default"));
          return Map.of("value", value);
        });
  }

  private static void declare(
      ConfigEvaluation config, Map<String, ConfigEvaluation> declaring, Map<String, Block> blocks) {
    for (Block block : config.document().blocks("feature")) {
      declaring.put(block.label(), config);
      blocks.put(block.label(), block);
    }
  }

  private static Map<String, String> overrides(String setting) {
    Map<String, String> overrides = new LinkedHashMap<>();
    if (setting == null || setting.isBlank()) {
      return overrides;
    }
    for (String pair : List.of(setting.split(","))) {
      int equals = pair.indexOf('=');
      if (equals > 0) {
        overrides.put(pair.substring(0, equals).strip(), pair.substring(equals + 1).strip());
      }
    }
    return overrides;
  }

  private static Object parse(String value) {
    return switch (value.toLowerCase(Locale.ROOT)) {
      case "true" -> Boolean.TRUE;
      case "false" -> Boolean.FALSE;
      default -> value;
    };
  }
}
