package io.livegate.scan.terragrunt;

import io.livegate.core.RepoPaths;
import io.livegate.scan.hcl.Attribute;
import io.livegate.scan.hcl.Block;
import io.livegate.scan.hcl.Evaluator;
import io.livegate.scan.hcl.HclDocument;
import io.livegate.scan.hcl.InvalidHcl;
import io.livegate.scan.hcl.Scope;
import io.livegate.scan.hcl.Unknown;
import io.livegate.scan.repo.SourceTree;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * The local modules terraform reads from a directory: every {@code module "x" { source = "./y" }}
 * or {@code "../y"} in its .tf files, followed through the called modules' own .tf files. terraform
 * reads a local module's directory whole (a {@code templatefile()} or {@code file()} in it may read
 * any file there), so a change anywhere in one changes the units whose terraform calls it.
 *
 * <p>Thread-safe; each directory's calls are worked out once per tree, since many units share a
 * module.
 */
final class LocalModules {
  /** The module source syntax for a local path, as terraform's module installer tells them. */
  private static final List<String> LOCAL_PREFIXES = List.of("./", "../");

  /** Literals only: a module source must be a literal string in terraform. */
  private static final Scope LITERALS =
      new Scope() {
        @Override
        public Object variable(String name, String file, int line) {
          return Unknown.at(file, line, "a module source is a literal");
        }

        @Override
        public Object call(
            String function, List<Supplier<Object>> arguments, String file, int line) {
          return Unknown.at(file, line, "a module source is a literal");
        }
      };

  private final SourceTree tree;
  private final Map<String, Set<String>> directCalls = new ConcurrentHashMap<>();
  private volatile Map<String, List<String>> tfFilesByDirectory;

  LocalModules(SourceTree tree) {
    this.tree = tree;
  }

  /**
   * The module directories that terraform, run in {@code workingDirectory}, reads: those its .tf
   * files call, and theirs, transitively; in the order found, without {@code workingDirectory}.
   */
  Set<String> calledFrom(String workingDirectory) {
    Set<String> found = new LinkedHashSet<>();
    Deque<String> queue = new ArrayDeque<>(List.of(workingDirectory));
    while (!queue.isEmpty()) {
      for (String called : directCalls.computeIfAbsent(queue.poll(), this::readCalls)) {
        if (!called.equals(workingDirectory) && found.add(called)) {
          queue.add(called);
        }
      }
    }
    return found;
  }

  private Set<String> readCalls(String directory) {
    Set<String> calls = new LinkedHashSet<>();
    for (String file : tfFiles().getOrDefault(directory, List.of())) {
      String text = tree.read(file);
      if (!text.contains("module")) {
        continue;
      }
      HclDocument document;
      try {
        document = HclDocument.parse(file, text);
      } catch (InvalidHcl e) {
        // terraform fails on this file when it plans; the directory itself still counts.
        continue;
      }
      for (Block block : document.blocks("module")) {
        Attribute source = block.attribute("source").orElse(null);
        if (source == null) {
          continue;
        }
        Object value = new Evaluator(LITERALS).evaluate(source.value());
        if (value instanceof String path && LOCAL_PREFIXES.stream().anyMatch(path::startsWith)) {
          String resolved = RepoPaths.normalize(RepoPaths.join(directory, path));
          if (resolved != null) {
            calls.add(resolved);
          }
        }
      }
    }
    return calls;
  }

  /** The .tf files of the tree by directory, listed once. */
  private Map<String, List<String>> tfFiles() {
    Map<String, List<String>> index = tfFilesByDirectory;
    if (index == null) {
      synchronized (this) {
        index = tfFilesByDirectory;
        if (index == null) {
          index = new HashMap<>();
          for (String file : tree.files()) {
            if (file.endsWith(".tf")) {
              String dir = RepoPaths.parent(file);
              index.computeIfAbsent(dir == null ? "" : dir, key -> new ArrayList<>()).add(file);
            }
          }
          tfFilesByDirectory = index;
        }
      }
    }
    return index;
  }
}
