package io.livegate.scan.terragrunt;

import io.livegate.scan.hcl.Attribute;
import io.livegate.scan.hcl.Block;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * A unit's {@code exclude} block and {@code skip} attribute (terragrunt's exclude.go), its own or
 * an included file's (its own winning): whether terragrunt would leave it out of plan and apply.
 * Their values decide what is deployed, so one that cannot be worked out is an error.
 */
final class Exclusions {
  /** The actions of an {@code exclude} block that cover what livegate runs: plan and apply. */
  private static final Set<String> DEPLOY_ACTIONS =
      Set.of("all", "all_except_output", "plan", "apply");

  private Exclusions() {}

  static Optional<Exclusion> of(ConfigEvaluation unit) {
    ConfigEvaluation excludeOwner = null;
    Block exclude = null;
    ConfigEvaluation skipOwner = null;
    Attribute skip = null;
    for (Includes.Include include : unit.includes().all()) {
      if (include.mergeStrategy().equals("no_merge")) {
        continue;
      }
      ConfigEvaluation config = include.config();
      List<Block> blocks = config.document().blocks("exclude");
      if (!blocks.isEmpty()) {
        excludeOwner = config;
        exclude = blocks.get(0);
      }
      if (config.document().attributes().containsKey("skip")) {
        skipOwner = config;
        skip = config.document().attributes().get("skip");
      }
    }
    List<Block> own = unit.document().blocks("exclude");
    if (!own.isEmpty()) {
      excludeOwner = unit;
      exclude = own.get(0);
    }
    if (unit.document().attributes().containsKey("skip")) {
      skipOwner = unit;
      skip = unit.document().attributes().get("skip");
    }
    if (exclude != null) {
      Optional<Exclusion> excluded = exclude(excludeOwner, exclude);
      if (excluded.isPresent()) {
        return excluded;
      }
    }
    if (skip != null && bool(skipOwner, skip, "skip")) {
      return Optional.of(
          new Exclusion(skipOwner.document().file(), skip.line(), false, "skip = true"));
    }
    return Optional.empty();
  }

  private static Optional<Exclusion> exclude(ConfigEvaluation config, Block block) {
    String file = config.document().file();
    Attribute condition =
        block
            .attribute("if")
            .orElseThrow(
                () -> new InvalidTerragruntConfig(file, block.line(), "exclude has no 'if'"));
    Attribute actionsAttribute =
        block
            .attribute("actions")
            .orElseThrow(
                () -> new InvalidTerragruntConfig(file, block.line(), "exclude has no 'actions'"));
    if (!bool(config, condition, "exclude.if")) {
      return Optional.empty();
    }
    Object actions = config.evaluate(actionsAttribute.value());
    if (!(actions instanceof List<?> list)) {
      throw new InvalidTerragruntConfig(
          file,
          actionsAttribute.line(),
          "exclude.actions must be a list of actions, "
              + ConfigEvaluation.reasonOrType(actions, file, actionsAttribute.line()));
    }
    if (list.stream().noneMatch(DEPLOY_ACTIONS::contains)) {
      return Optional.empty();
    }
    boolean excludeDependencies =
        block.attribute("exclude_dependencies").isPresent()
            && bool(config, block.attribute("exclude_dependencies").get(), "exclude_dependencies");
    return Optional.of(
        new Exclusion(
            file,
            block.line(),
            excludeDependencies,
            "exclude { actions = "
                + list.stream().map(action -> "\"" + action + "\"").toList()
                + (excludeDependencies ? ", exclude_dependencies = true" : "")
                + " }"));
  }

  private static boolean bool(ConfigEvaluation config, Attribute attribute, String name) {
    Object value = config.evaluate(attribute.value());
    if (value instanceof Boolean on) {
      return on;
    }
    throw new InvalidTerragruntConfig(
        config.document().file(),
        attribute.line(),
        name
            + " must be true or false, "
            + ConfigEvaluation.reasonOrType(value, config.document().file(), attribute.line()));
  }
}
