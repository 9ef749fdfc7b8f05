package io.livegate.scan.terragrunt;

import io.livegate.core.RepoPaths;
import io.livegate.scan.hcl.Attribute;
import io.livegate.scan.hcl.Block;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * A unit's dependencies (terragrunt's dependency.go): its {@code dependency} blocks and {@code
 * dependencies.paths}, its own and its includes', merged by each include's strategy; and the {@code
 * dependency} variable, whose outputs a scan never knows.
 */
final class Dependencies {
  private Dependencies() {}

  static List<DependencyDeclaration> of(ConfigEvaluation unit) {
    Map<String, List<DependencyDeclaration>> byLabel = new LinkedHashMap<>();
    List<DependencyDeclaration> paths = new ArrayList<>();
    for (Includes.Include include : unit.includes().all()) {
      if (include.mergeStrategy().equals("no_merge")) {
        continue;
      }
      blocks(include.config(), byLabel);
      List<DependencyDeclaration> included = paths(include.config());
      if (!included.isEmpty()) {
        if (include.mergeStrategy().equals("shallow")) {
          paths.clear();
        }
        paths.addAll(included);
      }
    }
    blocks(unit, byLabel);
    List<DependencyDeclaration> own = paths(unit);
    if (!unit.document().blocks("dependencies").isEmpty()) {
      boolean deep =
          unit.includes().all().stream()
              .anyMatch(include -> include.mergeStrategy().equals("deep"));
      if (!deep) {
        paths.clear();
      }
      paths.addAll(own);
    }
    List<DependencyDeclaration> all = new ArrayList<>();
    byLabel.values().forEach(all::addAll);
    all.addAll(paths);
    return all;
  }

  /** {@code dependency} as HCL reads it: each label's outputs, never known at scan time. */
  static Object variable(ConfigEvaluation config, String file, int line) {
    Set<String> labels = new LinkedHashSet<>();
    config.document().blocks("dependency").forEach(block -> labels.add(block.label()));
    config
        .includes()
        .all()
        .forEach(
            include ->
                include
                    .config()
                    .document()
                    .blocks("dependency")
                    .forEach(block -> labels.add(block.label())));
    return new LazyMap(
        labels,
        label ->
            Map.of(
                "outputs",
                TerragruntConfigReader.notKnownAtScanTime(
                    "dependency." + label + ".outputs", file, line)));
  }

  /**
   * Merges one file's {@code dependency} blocks into {@code byLabel}. Within a file every block is
   * an edge, also two with one label: terragrunt's partial parse turns each block's config_path
   * into a dependency path (v1.1.3 pkg/config/config_partial.go, {@code
   * dependencyBlocksToModuleDependencies} over all decoded blocks). Across an include, the blocks
   * of the including file replace the included file's blocks with the same label (include.go {@code
   * mergeDependencyBlocks}); a disabled block replaces them with nothing.
   */
  private static void blocks(
      ConfigEvaluation config, Map<String, List<DependencyDeclaration>> byLabel) {
    Map<String, List<DependencyDeclaration>> fromThisFile = new LinkedHashMap<>();
    for (Block block : config.document().blocks("dependency")) {
      String label = block.label();
      if (!enabled(config, block)) {
        fromThisFile.computeIfAbsent(label, key -> new ArrayList<>());
        continue;
      }
      Optional<Attribute> configPath = block.attribute("config_path");
      if (configPath.isEmpty()) {
        if (!byLabel.containsKey(label)) {
          throw new InvalidTerragruntConfig(
              config.document().file(),
              block.line(),
              "dependency \"" + label + "\" has no config_path");
        }
        // A block that only adds to an included one keeps the included path.
        fromThisFile.computeIfAbsent(label, key -> new ArrayList<>()).addAll(byLabel.get(label));
        continue;
      }
      fromThisFile
          .computeIfAbsent(label, key -> new ArrayList<>())
          .add(
              declaration(
                  config,
                  config.evaluate(configPath.get().value()),
                  configPath.get(),
                  "dependency \"" + label + "\""));
    }
    fromThisFile.forEach(
        (label, declarations) -> {
          if (declarations.isEmpty()) {
            byLabel.remove(label);
          } else {
            byLabel.put(label, declarations);
          }
        });
  }

  /**
   * Whether a {@code dependency} block is on: {@code enabled = false} makes it no edge at all, and
   * its target need not exist. A value that cannot be worked out is an error, since it decides an
   * edge.
   */
  private static boolean enabled(ConfigEvaluation config, Block block) {
    Optional<Attribute> enabled = block.attribute("enabled");
    if (enabled.isEmpty()) {
      return true;
    }
    Object value = config.evaluate(enabled.get().value());
    if (value instanceof Boolean on) {
      return on;
    }
    throw new InvalidTerragruntConfig(
        config.document().file(),
        enabled.get().line(),
        "dependency \""
            + block.label()
            + "\": enabled must be true or false, "
            + ConfigEvaluation.reasonOrType(value, config.document().file(), enabled.get().line()));
  }

  private static List<DependencyDeclaration> paths(ConfigEvaluation config) {
    List<Block> blocks = config.document().blocks("dependencies");
    if (blocks.size() > 1) {
      throw new InvalidTerragruntConfig(
          config.document().file(),
          blocks.get(1).line(),
          "a config may have only one dependencies block");
    }
    List<DependencyDeclaration> result = new ArrayList<>();
    for (Block block : blocks) {
      Optional<Attribute> paths = block.attribute("paths");
      if (paths.isEmpty()) {
        continue;
      }
      Object value = config.evaluate(paths.get().value());
      if (!(value instanceof List<?> list)) {
        throw new InvalidTerragruntConfig(
            config.document().file(),
            paths.get().line(),
            "dependencies.paths must be a list of paths, "
                + ConfigEvaluation.reasonOrType(
                    value, config.document().file(), paths.get().line()));
      }
      for (Object item : list) {
        result.add(declaration(config, item, paths.get(), "dependencies.paths"));
      }
    }
    return result;
  }

  private static DependencyDeclaration declaration(
      ConfigEvaluation config, Object value, Attribute attribute, String declaredAs) {
    String file = config.document().file();
    if (!(value instanceof String path)) {
      throw new InvalidTerragruntConfig(
          file,
          attribute.line(),
          declaredAs
              + ": the path cannot be worked out: "
              + ConfigEvaluation.reasonOrType(value, file, attribute.line()));
    }
    String target = config.toRepoPath(path);
    if (target == null) {
      throw new InvalidTerragruntConfig(
          file, attribute.line(), declaredAs + ": '" + path + "' is outside the repository");
    }
    if (RepoPaths.fileName(target).endsWith(".hcl") && config.reader().tree().isFile(target)) {
      target = RepoPaths.parent(target);
    }
    return new DependencyDeclaration(
        UnitDiscovery.unitId(target), file, attribute.line(), declaredAs);
  }
}
