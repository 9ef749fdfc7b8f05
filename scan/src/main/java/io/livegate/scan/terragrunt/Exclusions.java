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
 *
 * <p>{@code skip} follows the scan's terragrunt release, as config/include.go and config/config.go
 * of each release have it:
 *
 * <ul>
 *   <li>before 0.68.0 it is not inherited: v0.67.0 include.go sets the merged {@code Skip} to the
 *       unit's own, "Skip has to be set specifically in each file that should be skipped";
 *   <li>from 0.68.0 to 0.92.x an included file's {@code skip} is merged in unless the unit sets its
 *       own (v0.68.0 and v0.92.0 include.go: {@code if sourceConfig.Skip != nil});
 *   <li>from 0.93.0 the attribute is gone (v0.93.0 config.go has no {@code skip} field), so a full
 *       parse rejects it: an error naming the file and line and the {@code exclude} block instead.
 * </ul>
 *
 * <p>The {@code exclude} block exists from 0.69.0 (v0.69.0 config.go); before, it is an error.
 */
final class Exclusions {
  /** The actions of an {@code exclude} block that cover what livegate runs: plan and apply. */
  private static final Set<String> DEPLOY_ACTIONS =
      Set.of("all", "all_except_output", "plan", "apply");

  private Exclusions() {}

  static Optional<Exclusion> of(ConfigEvaluation unit) {
    TerragruntVersion version = unit.reader().version();
    boolean skipInherited = version.atLeast(TerragruntVersion.SKIP_INHERITED);
    ConfigEvaluation excludeOwner = null;
    Block exclude = null;
    ConfigEvaluation skipOwner = null;
    Attribute skip = null;
    for (Includes.Include include : unit.includes().all()) {
      ConfigEvaluation config = include.config();
      // terragrunt parses an included file in full whatever it merges of it.
      rejectWhereUnknown(config, version);
      if (include.mergeStrategy().equals("no_merge")) {
        continue;
      }
      List<Block> blocks = config.document().blocks("exclude");
      if (!blocks.isEmpty()) {
        excludeOwner = config;
        exclude = blocks.get(0);
      }
      if (skipInherited && config.document().attributes().containsKey("skip")) {
        skipOwner = config;
        skip = config.document().attributes().get("skip");
      }
    }
    rejectWhereUnknown(unit, version);
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

  /**
   * Fails on a {@code skip} that {@code version} no longer reads, or an {@code exclude} block it
   * does not read yet: terragrunt's full parse would stop there.
   */
  private static void rejectWhereUnknown(ConfigEvaluation config, TerragruntVersion version) {
    String file = config.document().file();
    Attribute skip = config.document().attributes().get("skip");
    if (skip != null && version.atLeast(TerragruntVersion.SKIP_REMOVED)) {
      throw new InvalidTerragruntConfig(
          file,
          skip.line(),
          "'skip' was removed in terragrunt "
              + TerragruntVersion.SKIP_REMOVED
              + " and this scan reads configs for terragrunt "
              + version
              + ", which rejects it; write exclude { if = true, actions = [\"all\"] } in the"
              + " unit instead (an exclude block in an included file applies to every includer)");
    }
    List<Block> excludes = config.document().blocks("exclude");
    if (!excludes.isEmpty() && !version.atLeast(TerragruntVersion.EXCLUDE_BLOCK)) {
      throw new InvalidTerragruntConfig(
          file,
          excludes.get(0).line(),
          "the exclude block needs terragrunt "
              + TerragruntVersion.EXCLUDE_BLOCK
              + " or later, and this scan reads configs for terragrunt "
              + version);
    }
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
