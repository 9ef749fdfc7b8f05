package io.livegate.scan.terragrunt;

import io.livegate.core.RepoPaths;
import io.livegate.scan.hcl.Attribute;
import io.livegate.scan.hcl.Block;
import io.livegate.scan.hcl.HclDocument;
import io.livegate.scan.hcl.InvalidHcl;
import io.livegate.scan.repo.RemoteSources;
import io.livegate.scan.repo.SourceTree;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * The units that {@code terragrunt.stack.hcl} files generate, worked out as {@code terragrunt stack
 * generate} would without writing anything: each {@code unit} block copies its source directory to
 * {@code <stack dir>/.terragrunt-stack/<path>} (or {@code <stack dir>/<path>} with {@code
 * no_dot_terragrunt_stack = true}) with its {@code values}; each {@code stack} block copies a
 * directory holding another stack file there and generates that stack in turn.
 *
 * <p>A directory that a {@code unit} block uses as its source is a catalog unit, not a unit, and a
 * stack file that a {@code stack} block uses as its source is a catalog stack, generated only where
 * it is used. A remote git source is fetched through {@link RemoteSources}; one that cannot be
 * fetched, or of a kind other than git, is a problem naming the unit.
 */
public final class Stacks {
  /** The file that declares a stack. */
  public static final String STACK_FILE = "terragrunt.stack.hcl";

  /** Where terragrunt generates a stack's units, inside the stack's directory. */
  public static final String STACK_DIRECTORY = ".terragrunt-stack";

  private static final int MAX_DEPTH = 16;

  private final GeneratedTree tree;
  private final TerragruntConfigReader reader;
  private final RemoteSources remoteSources;
  private final Map<String, GeneratedUnit> units = new TreeMap<>();
  private final SortedMap<String, String> problems = new TreeMap<>();
  private final SortedMap<String, String> catalogUnits = new TreeMap<>();
  private final Set<String> catalogStacks = new TreeSet<>();

  private Stacks(
      SourceTree repository, Map<String, String> environment, RemoteSources remoteSources) {
    this.tree = new GeneratedTree(repository);
    this.reader = new TerragruntConfigReader(tree, environment);
    this.remoteSources = remoteSources;
  }

  /**
   * Generates every committed stack of {@code repository} that no stack block uses as a source.
   *
   * @param remoteSources fetches the sources outside the repository
   */
  public static Stacks expand(
      SourceTree repository, Map<String, String> environment, RemoteSources remoteSources) {
    List<String> stackFiles =
        repository.files().stream()
            .filter(file -> RepoPaths.hasFileName(file, STACK_FILE))
            .filter(file -> !UnitDiscovery.isSkipped(RepoPaths.parent(file)))
            .sorted()
            .toList();
    if (stackFiles.isEmpty()) {
      return new Stacks(repository, environment, remoteSources);
    }
    // A first pass finds the catalog stacks, which the second pass generates only where used.
    Stacks survey = new Stacks(repository, environment, remoteSources);
    stackFiles.forEach(file -> survey.generate(file, RepoPaths.parent(file), null, List.of()));
    Stacks stacks = new Stacks(repository, environment, remoteSources);
    stackFiles.stream()
        .filter(file -> !survey.catalogStacks.contains(RepoPaths.parent(file)))
        .forEach(file -> stacks.generate(file, RepoPaths.parent(file), null, List.of()));
    return stacks;
  }

  /** The repository with every generated directory in it. */
  public SourceTree tree() {
    return tree;
  }

  /** The committed path behind a path of {@link #tree()}. */
  public String realPath(String path) {
    return tree.realPath(path);
  }

  /**
   * The files that generating {@code directory} writes: those of the unit or stack generated there
   * and of each stack generated above it.
   */
  List<String> filesGeneratedFor(String directory) {
    return tree.filesGeneratedFor(directory);
  }

  /** The generated units by id. */
  public Map<String, GeneratedUnit> units() {
    return units;
  }

  /** Each problem, keyed by the unit (or stack file) it stops, naming file and line. */
  public SortedMap<String, String> problems() {
    return problems;
  }

  /**
   * Committed directories that unit blocks use as sources, each with one unit generated from it.
   */
  public SortedMap<String, String> catalogUnits() {
    return catalogUnits;
  }

  private void generate(String stackFile, String dir, Object values, List<String> chain) {
    String realFile = tree.realPath(stackFile);
    if (chain.size() >= MAX_DEPTH || chain.contains(realFile)) {
      problems.put(
          UnitDiscovery.unitId(dir),
          stackFile + ": stacks nest too deep or in a cycle: " + String.join(" -> ", chain));
      return;
    }
    List<String> stackChain = new ArrayList<>(chain);
    stackChain.add(realFile);
    HclDocument document;
    try {
      document = reader.document(stackFile);
    } catch (InvalidHcl e) {
      problems.put(UnitDiscovery.unitId(dir), e.getMessage());
      return;
    }
    Set<FileRead> reads = new LinkedHashSet<>();
    ConfigEvaluation stack =
        ConfigEvaluation.forStack(reader, document, dir, reads).withValues(values);
    if (values == null && !chain.isEmpty()) {
      stack.withoutValuesFile();
    }
    // Every unit of the stack depends on everything the stack file reads.
    stack.evaluateEverything();
    for (Block block : document.blocks()) {
      if (!block.type().equals("unit") && !block.type().equals("stack")) {
        continue;
      }
      boolean isUnit = block.type().equals("unit");
      String label = block.type() + " \"" + block.label() + "\"";
      try {
        String path = text(stack, block, "path", label);
        boolean noDot = noDot(stack, block, label);
        // As terragrunt: relative, and inside the directory it generates into (.terragrunt-stack,
        // or the stack's own with no_dot_terragrunt_stack).
        String into = noDot ? dir : RepoPaths.join(dir, STACK_DIRECTORY);
        String generated = RepoPaths.normalize(RepoPaths.join(into, path));
        if (path.startsWith("/") || generated == null || !RepoPaths.isWithin(generated, into)) {
          throw new InvalidTerragruntConfig(
              document.file(),
              block.line(),
              label + ": path '" + path + "' leaves the stack (" + into + ")");
        }
        String id = UnitDiscovery.unitId(generated);
        try {
          GeneratedTree.Location source = source(stack, block, label, id, isUnit);
          Object givenValues =
              block
                  .attribute("values")
                  .map(Attribute::value)
                  .map(stack::evaluate)
                  .map(TerragruntFunctions::materialize)
                  .orElse(null);
          Object unitValues = givenValues == null ? Map.of() : givenValues;
          tree.copy(generated, source);
          String realSource = source.realPath();
          if (isUnit) {
            if (source.remote() == null) {
              catalogUnits.putIfAbsent(realSource, id);
            }
            Set<FileRead> unitReads = new LinkedHashSet<>();
            stackChain.forEach(file -> unitReads.add(new FileRead(file, FileRead.Via.STACK)));
            reads.forEach(
                read ->
                    unitReads.add(new FileRead(tree.realPath(read.path()), FileRead.Via.STACK)));
            unitReads.add(new FileRead(realSource, FileRead.Via.STACK_SOURCE));
            units.put(
                id,
                new GeneratedUnit(
                    id,
                    realSource,
                    unitValues,
                    unitReads,
                    realSource + "\n" + generated + "\n" + canonical(unitValues)));
          } else {
            catalogStacks.add(realSource);
            generate(RepoPaths.join(generated, STACK_FILE), generated, givenValues, stackChain);
          }
        } catch (InvalidTerragruntConfig | InvalidHcl e) {
          problems.put(id, e.getMessage());
        }
      } catch (InvalidTerragruntConfig | InvalidHcl e) {
        problems.put(document.file() + ":" + block.line(), e.getMessage());
      }
    }
  }

  private GeneratedTree.Location source(
      ConfigEvaluation stack, Block block, String label, String id, boolean isUnit) {
    String file = stack.document().file();
    String source = text(stack, block, "source", label);
    String needed = isUnit ? TerragruntConfigReader.CONFIG_FILE : STACK_FILE;
    Optional<RemoteSource> remote;
    try {
      remote = RemoteSource.parse(source);
    } catch (RemoteSource.NotSupported e) {
      throw new InvalidTerragruntConfig(
          file,
          block.line(),
          label
              + " ("
              + id
              + "): '"
              + RemoteSource.withoutUserInfo(source)
              + "': "
              + e.getMessage());
    }
    GeneratedTree.Location location;
    if (remote.isPresent()) {
      RemoteSource fetched = remote.get();
      try {
        location =
            new GeneratedTree.Location(
                remoteSources.fetch(fetched.url(), fetched.ref(), fetched.subdir()), "", fetched);
      } catch (RemoteSources.Unavailable e) {
        throw new InvalidTerragruntConfig(
            file,
            block.line(),
            label
                + " ("
                + id
                + "): cannot fetch its source "
                + fetched.address("")
                + ": "
                + e.getMessage());
      }
    } else {
      String path = source.contains("?") ? source.substring(0, source.indexOf('?')) : source;
      String dir = stack.fileToRepoPath(path.replace("//", "/"));
      if (dir == null) {
        throw new InvalidTerragruntConfig(
            file,
            block.line(),
            label
                + " ("
                + id
                + "): its source '"
                + source
                + "' is outside the repository; livegate reads a local source from the"
                + " repository's commit only (a repository elsewhere on this machine is a"
                + " git::file:// source, fetched only with --allow-local-sources)");
      }
      location = tree.locate(dir);
    }
    if (location == null || !location.tree().isFile(RepoPaths.join(location.path(), needed))) {
      throw new InvalidTerragruntConfig(
          file,
          block.line(),
          label + " (" + id + "): its source '" + source + "' has no " + needed);
    }
    return location;
  }

  private static String text(ConfigEvaluation stack, Block block, String name, String label) {
    Attribute attribute =
        block
            .attribute(name)
            .orElseThrow(
                () ->
                    new InvalidTerragruntConfig(
                        stack.document().file(), block.line(), label + " has no " + name));
    Object value = stack.evaluate(attribute.value());
    if (value instanceof String text) {
      return text;
    }
    throw new InvalidTerragruntConfig(
        stack.document().file(),
        attribute.line(),
        label
            + ": "
            + name
            + " cannot be worked out: "
            + ConfigEvaluation.reasonOrType(value, stack.document().file(), attribute.line()));
  }

  private static boolean noDot(ConfigEvaluation stack, Block block, String label) {
    Optional<Attribute> attribute = block.attribute("no_dot_terragrunt_stack");
    if (attribute.isEmpty()) {
      return false;
    }
    Object value = stack.evaluate(attribute.get().value());
    if (value instanceof Boolean on) {
      return on;
    }
    throw new InvalidTerragruntConfig(
        stack.document().file(),
        attribute.get().line(),
        label
            + ": no_dot_terragrunt_stack must be true or false, "
            + ConfigEvaluation.reasonOrType(
                value, stack.document().file(), attribute.get().line()));
  }

  /** A value written with sorted map keys, so that equal values compare equal as text. */
  private static String canonical(Object value) {
    if (value instanceof Map<?, ?> map) {
      StringBuilder out = new StringBuilder("{");
      new TreeMap<>(
              map.entrySet().stream()
                  .collect(
                      Collectors.toMap(
                          entry -> String.valueOf(entry.getKey()), Map.Entry::getValue)))
          .forEach((key, item) -> out.append(key).append('=').append(canonical(item)).append(','));
      return out.append('}').toString();
    }
    if (value instanceof List<?> list) {
      return list.stream().map(Stacks::canonical).toList().toString();
    }
    return String.valueOf(value);
  }
}
