package io.livegate.scan.terragrunt;

import io.livegate.scan.hcl.Attribute;
import io.livegate.scan.hcl.Block;
import io.livegate.scan.hcl.Evaluator;
import io.livegate.scan.hcl.HclDocument;
import io.livegate.scan.hcl.Unknown;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * A unit config's {@code include} blocks (terragrunt's include.go): each resolved once, its file
 * evaluated in the unit's directory, one level deep; the {@code include} variable of exposed
 * includes; and what the functions about "the include" refer to.
 */
final class Includes {
  /** One include block, resolved. */
  record Include(
      String label,
      String file,
      int line,
      boolean expose,
      String mergeStrategy,
      ConfigEvaluation config) {}

  private final ConfigEvaluation owner;
  private List<Include> resolved;
  private Map<String, Include> byLabel;
  private boolean resolving;

  Includes(ConfigEvaluation owner) {
    this.owner = owner;
  }

  /**
   * Every include in the order written; none for an included file, which may not include. Two
   * blocks with one label are both merged, as terragrunt merges its include list; the later one is
   * what {@code include.<label>} and the functions naming the label see.
   */
  List<Include> all() {
    if (resolved != null) {
      return resolved;
    }
    if (owner.includedFile() != null) {
      return List.of();
    }
    resolving = true;
    List<Include> list = new ArrayList<>();
    Map<String, Include> labelled = new LinkedHashMap<>();
    Block bare = null;
    for (Block block : owner.document().blocks("include")) {
      if (block.label().isEmpty()) {
        if (bare != null) {
          throw new InvalidTerragruntConfig(
              owner.document().file(),
              block.line(),
              "only one unlabelled include block is allowed (the first is on line "
                  + bare.line()
                  + ")");
        }
        bare = block;
      }
      Include include = include(block);
      list.add(include);
      labelled.put(include.label(), include);
    }
    resolving = false;
    byLabel = Collections.unmodifiableMap(labelled);
    resolved = List.copyOf(list);
    return resolved;
  }

  /** The includes by label, the later one for a label written twice. */
  private Map<String, Include> byLabel() {
    all();
    return byLabel == null ? Map.of() : byLabel;
  }

  /** {@code include} as HCL reads it: each exposed include's attributes and locals. */
  Object asVariable(String file, int line) {
    if (owner.includedFile() != null) {
      return Unknown.at(file, line, "'include' cannot be used inside an included file");
    }
    if (resolving) {
      return Unknown.at(file, line, "an include path cannot depend on 'include' itself");
    }
    Map<String, Include> all = byLabel();
    return new LazyMap(
        all.keySet(),
        label -> {
          Include include = all.get(label);
          if (!include.expose()) {
            return Unknown.at(
                file,
                line,
                "include \"" + label + "\" is not exposed; set expose = true to read it");
          }
          ConfigEvaluation config = include.config();
          Set<String> keys = new LinkedHashSet<>(config.document().attributes().keySet());
          keys.add("locals");
          return new LazyMap(
              keys,
              key ->
                  key.equals("locals")
                      ? config.locals().asVariable()
                      : config.evaluate(config.document().attributes().get(key).value()));
        });
  }

  /**
   * Applies {@code function} to "the include" of a function such as {@code
   * get_parent_terragrunt_dir()}: this included file itself, or the unit's include named by the
   * first argument, or its only one. Where there is no include, which is also the case while an
   * include's own path is evaluated, the value is {@code withoutInclude}, as in terragrunt.
   */
  Object related(
      List<Supplier<Object>> arguments,
      String file,
      int line,
      Function<String, Object> function,
      Object withoutInclude) {
    if (owner.includedFile() != null) {
      return function.apply(owner.includedFile());
    }
    if (resolving) {
      return withoutInclude;
    }
    Map<String, Include> all = byLabel();
    if (!arguments.isEmpty()) {
      Object label = arguments.get(0).get();
      Include include = all.get(label);
      return include == null
          ? Unknown.at(file, line, "no include named " + Evaluator.describe(label))
          : function.apply(include.file());
    }
    if (all.isEmpty()) {
      return withoutInclude;
    }
    if (all.size() > 1) {
      return Unknown.at(file, line, "the config has several includes; name the one you mean");
    }
    return function.apply(all.values().iterator().next().file());
  }

  private Include include(Block block) {
    HclDocument document = owner.document();
    Attribute pathAttribute =
        block
            .attribute("path")
            .orElseThrow(
                () ->
                    new InvalidTerragruntConfig(
                        document.file(),
                        block.line(),
                        "include \"" + block.label() + "\" has no path"));
    Object value = owner.evaluate(pathAttribute.value());
    if (!(value instanceof String path)) {
      throw new InvalidTerragruntConfig(
          document.file(),
          pathAttribute.line(),
          "include path cannot be worked out: "
              + ConfigEvaluation.reasonOrType(value, document.file(), pathAttribute.line()));
    }
    String file = owner.toRepoPath(path);
    if (file == null || !owner.reader().tree().isFile(file)) {
      throw new InvalidTerragruntConfig(
          document.file(), pathAttribute.line(), "included file '" + path + "' does not exist");
    }
    HclDocument included = owner.reader().document(file);
    if (!included.blocks("include").isEmpty()) {
      throw new InvalidTerragruntConfig(
          file,
          included.blocks("include").get(0).line(),
          "included by "
              + document.file()
              + ", but it has an include block itself; terragrunt allows one level of includes");
    }
    owner.reads().add(new FileRead(file, FileRead.Via.INCLUDE));
    boolean expose =
        Boolean.TRUE.equals(
            block.attribute("expose").map(a -> owner.evaluate(a.value())).orElse(false));
    Object strategy =
        block.attribute("merge_strategy").map(a -> owner.evaluate(a.value())).orElse("shallow");
    if (!List.of("no_merge", "shallow", "deep").contains(strategy)) {
      throw new InvalidTerragruntConfig(
          document.file(),
          block.line(),
          "merge_strategy must be no_merge, shallow or deep, "
              + ConfigEvaluation.reasonOrType(strategy, document.file(), block.line()));
    }
    return new Include(
        block.label(),
        file,
        block.line(),
        expose,
        (String) strategy,
        owner.included(included, file));
  }
}
