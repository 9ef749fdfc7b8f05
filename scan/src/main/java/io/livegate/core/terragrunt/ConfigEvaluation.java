package io.livegate.core.terragrunt;

import io.livegate.core.RepoPaths;
import io.livegate.core.hcl.Attribute;
import io.livegate.core.hcl.Block;
import io.livegate.core.hcl.Evaluator;
import io.livegate.core.hcl.HclDocument;
import io.livegate.core.hcl.InvalidHcl;
import io.livegate.core.hcl.Scope;
import io.livegate.core.hcl.StandardFunctions;
import io.livegate.core.hcl.Unknown;
import java.util.AbstractMap;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;

/**
 * One terragrunt file evaluated in one context, as terragrunt would: a unit's own config, a file it
 * includes (evaluated in the unit's directory), or a file read by {@code read_terragrunt_config()}
 * (evaluated in its own directory). Locals are evaluated on demand, so a value livegate cannot know
 * only matters where it is used.
 */
final class ConfigEvaluation implements Scope {
  private static final String DEFAULT_PARENT_FILE = TerragruntConfigReader.CONFIG_FILE;

  /** Functions that would run a command, decrypt a secret or call AWS; never called by a scan. */
  private static final Set<String> NOT_CALLED =
      Set.of(
          "run_cmd",
          "sops_decrypt_file",
          "get_aws_account_id",
          "get_aws_account_alias",
          "get_aws_caller_identity_arn",
          "get_aws_caller_identity_user_id",
          "get_terraform_command",
          "get_terraform_cli_args",
          "get_terraform_commands_that_need_vars",
          "get_terraform_commands_that_need_input",
          "get_terraform_commands_that_need_locking",
          "get_terraform_commands_that_need_parallelism",
          "get_platform",
          "timestamp",
          "uuid");

  /** The result of reading a file through {@code read_terragrunt_config()}. */
  record ReadResult(Object value, Set<FileRead> reads) {}

  private record Include(
      String label,
      String file,
      int line,
      boolean expose,
      String mergeStrategy,
      ConfigEvaluation config) {}

  private final TerragruntConfigReader reader;
  private final HclDocument document;

  /** The directory terragrunt treats as the config's own: the unit's for the unit and includes. */
  private final String terragruntDir;

  /** For an included file: its own path, which get_parent_terragrunt_dir() and friends use. */
  private final String includedFile;

  private final Set<FileRead> reads;
  private final List<String> warnings;

  /** Files being read through read_terragrunt_config() above this one, to stop read cycles. */
  private final List<String> readStack;

  private final Evaluator evaluator = new Evaluator(this);

  private final Map<String, Attribute> localDefinitions = new LinkedHashMap<>();
  private final Map<String, Object> localValues = new HashMap<>();
  private final Set<String> localsInProgress = new HashSet<>();
  private Map<String, Include> includes;
  private boolean resolvingIncludes;

  private ConfigEvaluation(
      TerragruntConfigReader reader,
      HclDocument document,
      String terragruntDir,
      String includedFile,
      Set<FileRead> reads,
      List<String> warnings,
      List<String> readStack) {
    this.reader = reader;
    this.document = document;
    this.terragruntDir = terragruntDir;
    this.includedFile = includedFile;
    this.reads = reads;
    this.warnings = warnings;
    this.readStack = readStack;
    for (Block locals : document.blocks("locals")) {
      for (Attribute local : locals.attributes().values()) {
        Attribute earlier = localDefinitions.putIfAbsent(local.name(), local);
        if (earlier != null) {
          throw new InvalidHcl(
              document.file(),
              local.line(),
              "local '" + local.name() + "' is already defined on line " + earlier.line());
        }
      }
    }
  }

  static ConfigEvaluation forUnit(
      TerragruntConfigReader reader,
      HclDocument document,
      String unit,
      Set<FileRead> reads,
      List<String> warnings) {
    return new ConfigEvaluation(
        reader, document, unit, null, reads, warnings, List.of(document.file()));
  }

  // ---------------------------------------------------------------- what a scan asks of a unit

  /** The unit's dependencies: its own and its includes', merged by each include's strategy. */
  List<DependencyDeclaration> dependencies() {
    Map<String, DependencyDeclaration> byLabel = new LinkedHashMap<>();
    List<DependencyDeclaration> paths = new ArrayList<>();
    for (Include include : includes().values()) {
      if (include.mergeStrategy().equals("no_merge")) {
        continue;
      }
      include.config().dependencyBlocks(byLabel);
      List<DependencyDeclaration> included = include.config().dependenciesPaths();
      if (!included.isEmpty()) {
        if (include.mergeStrategy().equals("shallow")) {
          paths.clear();
        }
        paths.addAll(included);
      }
    }
    dependencyBlocks(byLabel);
    List<DependencyDeclaration> own = dependenciesPaths();
    if (!document.blocks("dependencies").isEmpty()) {
      boolean deep = includes().values().stream().anyMatch(i -> i.mergeStrategy().equals("deep"));
      if (!deep) {
        paths.clear();
      }
      paths.addAll(own);
    }
    List<DependencyDeclaration> all = new ArrayList<>(byLabel.values());
    all.addAll(paths);
    return all;
  }

  /**
   * The directory of a local {@code terraform { source }}, whose changes change the unit; empty for
   * a remote source or none.
   */
  Optional<String> sourceDirectory() {
    Attribute source =
        document.blocks("terraform").stream()
            .flatMap(block -> block.attribute("source").stream())
            .findFirst()
            .orElse(null);
    ConfigEvaluation declaring = this;
    if (source == null) {
      for (Include include : includes().values()) {
        Optional<Attribute> included =
            include.config().document.blocks("terraform").stream()
                .flatMap(block -> block.attribute("source").stream())
                .findFirst();
        if (included.isPresent() && !include.mergeStrategy().equals("no_merge")) {
          source = included.get();
          declaring = include.config();
        }
      }
    }
    if (source == null) {
      return Optional.empty();
    }
    Object value = declaring.evaluator.evaluate(source.value());
    if (!(value instanceof String text)) {
      warnings.add(
          declaring.document.file()
              + ":"
              + source.line()
              + ": terraform.source cannot be evaluated ("
              + (value instanceof Unknown unknown ? unknown.reason() : Evaluator.describe(value))
              + "), so changes to a local module will not change this unit");
      return Optional.empty();
    }
    String location = text.contains("?") ? text.substring(0, text.indexOf('?')) : text;
    if (location.contains("::") || location.contains("://") || location.startsWith("git@")) {
      return Optional.empty();
    }
    int subdir = location.indexOf("//", location.startsWith("/") ? 1 : 0);
    String moduleRoot = subdir < 0 ? location : location.substring(0, subdir);
    return Optional.ofNullable(toRepoPath(moduleRoot));
  }

  /**
   * Evaluates every local and attribute once, so that each file the config reads is recorded even
   * when it feeds only inputs. Values that cannot be known are fine here.
   */
  void evaluateEverything() {
    evaluateAll();
    includes().values().forEach(include -> include.config().evaluateAll());
  }

  private void evaluateAll() {
    localDefinitions.keySet().forEach(this::local);
    document.attributes().values().forEach(attribute -> evaluator.evaluate(attribute.value()));
    document.blocks().stream()
        .filter(block -> !block.type().equals("include") && !block.type().equals("locals"))
        .forEach(this::evaluateBlock);
  }

  private void evaluateBlock(Block block) {
    block.attributes().values().forEach(attribute -> evaluator.evaluate(attribute.value()));
    block.blocks().forEach(this::evaluateBlock);
  }

  private void dependencyBlocks(Map<String, DependencyDeclaration> byLabel) {
    for (Block block : document.blocks("dependency")) {
      String label = block.label();
      Optional<Attribute> configPath = block.attribute("config_path");
      if (configPath.isEmpty()) {
        if (!byLabel.containsKey(label)) {
          throw new InvalidTerragruntConfig(
              document.file(), block.line(), "dependency \"" + label + "\" has no config_path");
        }
        continue;
      }
      String declaredAs = "dependency \"" + label + "\"";
      byLabel.put(
          label,
          declaration(evaluator.evaluate(configPath.get().value()), configPath.get(), declaredAs));
    }
  }

  private List<DependencyDeclaration> dependenciesPaths() {
    List<Block> blocks = document.blocks("dependencies");
    if (blocks.size() > 1) {
      throw new InvalidTerragruntConfig(
          document.file(), blocks.get(1).line(), "a config may have only one dependencies block");
    }
    List<DependencyDeclaration> result = new ArrayList<>();
    for (Block block : blocks) {
      Optional<Attribute> paths = block.attribute("paths");
      if (paths.isEmpty()) {
        continue;
      }
      Object value = evaluator.evaluate(paths.get().value());
      if (!(value instanceof List<?> list)) {
        throw new InvalidTerragruntConfig(
            document.file(),
            paths.get().line(),
            "dependencies.paths must be a list of paths, " + reasonOrType(value));
      }
      for (Object item : list) {
        result.add(declaration(item, paths.get(), "dependencies.paths"));
      }
    }
    return result;
  }

  private DependencyDeclaration declaration(Object value, Attribute attribute, String declaredAs) {
    if (!(value instanceof String path)) {
      throw new InvalidTerragruntConfig(
          document.file(),
          attribute.line(),
          declaredAs + ": the path cannot be worked out: " + reasonOrType(value));
    }
    String target = toRepoPath(path);
    if (target == null) {
      throw new InvalidTerragruntConfig(
          document.file(),
          attribute.line(),
          declaredAs + ": '" + path + "' is outside the repository");
    }
    if (RepoPaths.fileName(target).endsWith(".hcl") && reader.tree().isFile(target)) {
      target = RepoPaths.parent(target);
    }
    return new DependencyDeclaration(target, document.file(), attribute.line(), declaredAs);
  }

  private static String reasonOrType(Object value) {
    return value instanceof Unknown unknown
        ? unknown.reason()
        : "found " + Evaluator.describe(value);
  }

  // ---------------------------------------------------------------- includes

  private Map<String, Include> includes() {
    if (includes != null) {
      return includes;
    }
    if (includedFile != null) {
      return Map.of();
    }
    resolvingIncludes = true;
    Map<String, Include> resolved = new LinkedHashMap<>();
    for (Block block : document.blocks("include")) {
      Include include = include(block);
      if (resolved.putIfAbsent(include.label(), include) != null) {
        throw new InvalidTerragruntConfig(
            document.file(),
            block.line(),
            include.label().isEmpty()
                ? "only one unlabelled include block is allowed"
                : "include \"" + include.label() + "\" is declared twice");
      }
    }
    resolvingIncludes = false;
    includes = Collections.unmodifiableMap(resolved);
    return includes;
  }

  private Include include(Block block) {
    Attribute pathAttribute =
        block
            .attribute("path")
            .orElseThrow(
                () ->
                    new InvalidTerragruntConfig(
                        document.file(),
                        block.line(),
                        "include \"" + block.label() + "\" has no path"));
    Object value = evaluator.evaluate(pathAttribute.value());
    if (!(value instanceof String path)) {
      throw new InvalidTerragruntConfig(
          document.file(),
          pathAttribute.line(),
          "include path cannot be worked out: " + reasonOrType(value));
    }
    String file = toRepoPath(path);
    if (file == null || !reader.tree().isFile(file)) {
      throw new InvalidTerragruntConfig(
          document.file(), pathAttribute.line(), "included file '" + path + "' does not exist");
    }
    HclDocument included = reader.document(file);
    if (!included.blocks("include").isEmpty()) {
      throw new InvalidTerragruntConfig(
          file,
          included.blocks("include").get(0).line(),
          "included by "
              + document.file()
              + ", but it has an include block itself; terragrunt allows one level of includes");
    }
    reads.add(new FileRead(file, FileRead.Via.INCLUDE));
    boolean expose =
        Boolean.TRUE.equals(
            block.attribute("expose").map(a -> evaluator.evaluate(a.value())).orElse(false));
    Object strategy =
        block.attribute("merge_strategy").map(a -> evaluator.evaluate(a.value())).orElse("shallow");
    if (!List.of("no_merge", "shallow", "deep").contains(strategy)) {
      throw new InvalidTerragruntConfig(
          document.file(),
          block.line(),
          "merge_strategy must be no_merge, shallow or deep, " + reasonOrType(strategy));
    }
    ConfigEvaluation config =
        new ConfigEvaluation(reader, included, terragruntDir, file, reads, warnings, readStack);
    return new Include(block.label(), file, block.line(), expose, (String) strategy, config);
  }

  // ---------------------------------------------------------------- Scope

  @Override
  public Object variable(String name, String file, int line) {
    return switch (name) {
      case "local" -> new LazyMap(localDefinitions.keySet(), this::local);
      case "include" -> includeVariable(file, line);
      case "dependency" -> {
        Set<String> labels = new LinkedHashSet<>();
        document.blocks("dependency").forEach(block -> labels.add(block.label()));
        includes()
            .values()
            .forEach(
                include ->
                    include
                        .config()
                        .document
                        .blocks("dependency")
                        .forEach(block -> labels.add(block.label())));
        yield new LazyMap(
            labels,
            label ->
                Map.of(
                    "outputs",
                    TerragruntConfigReader.notKnownAtScanTime(
                        "dependency." + label + ".outputs", file, line)));
      }
      default -> TerragruntConfigReader.notKnownAtScanTime("'" + name + "'", file, line);
    };
  }

  private Object includeVariable(String file, int line) {
    if (includedFile != null) {
      return Unknown.at(file, line, "'include' cannot be used inside an included file");
    }
    if (resolvingIncludes) {
      return Unknown.at(file, line, "an include path cannot depend on 'include' itself");
    }
    Map<String, Include> all = includes();
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
          Set<String> keys = new LinkedHashSet<>(config.document.attributes().keySet());
          keys.add("locals");
          return new LazyMap(
              keys,
              key ->
                  key.equals("locals")
                      ? new LazyMap(config.localDefinitions.keySet(), config::local)
                      : config.evaluator.evaluate(config.document.attributes().get(key).value()));
        });
  }

  private Object local(String name) {
    if (localValues.containsKey(name)) {
      return localValues.get(name);
    }
    Attribute definition = localDefinitions.get(name);
    if (!localsInProgress.add(name)) {
      return Unknown.at(document.file(), definition.line(), "local." + name + " refers to itself");
    }
    Object value = evaluator.evaluate(definition.value());
    localsInProgress.remove(name);
    localValues.put(name, value);
    return value;
  }

  @Override
  public Object call(String function, List<Supplier<Object>> arguments, String file, int line) {
    return switch (function) {
      case "find_in_parent_folders" -> findInParentFolders(arguments, file, line);
      case "get_terragrunt_dir", "get_original_terragrunt_dir" -> absolute(terragruntDir);
      case "get_parent_terragrunt_dir" ->
          includeRelated(arguments, file, line, include -> absolute(RepoPaths.parent(include)));
      case "path_relative_to_include" ->
          includeRelated(
              arguments,
              file,
              line,
              include -> RepoPaths.relative(RepoPaths.parent(include), terragruntDir));
      case "path_relative_from_include" ->
          includeRelated(
              arguments,
              file,
              line,
              include -> RepoPaths.relative(terragruntDir, RepoPaths.parent(include)));
      case "get_repo_root" -> reader.tree().root();
      case "get_path_from_repo_root" -> terragruntDir.isEmpty() ? "." : terragruntDir;
      case "get_path_to_repo_root" -> RepoPaths.relative(terragruntDir, "");
      case "get_env" -> getEnv(arguments, file, line);
      case "read_terragrunt_config" -> readTerragruntConfig(arguments, file, line);
      case "file" -> readFile(arguments, file, line);
      default ->
          NOT_CALLED.contains(function)
              ? Unknown.at(
                  file,
                  line,
                  function + "() is never called by a livegate scan; its value is not known")
              : StandardFunctions.call(function, arguments, file, line);
    };
  }

  private Object findInParentFolders(List<Supplier<Object>> arguments, String file, int line) {
    Object name = arguments.isEmpty() ? DEFAULT_PARENT_FILE : arguments.get(0).get();
    if (!(name instanceof String wanted)) {
      return name instanceof Unknown
          ? name
          : Unknown.at(file, line, "find_in_parent_folders() takes a file name");
    }
    for (String dir = RepoPaths.parent(terragruntDir); dir != null; dir = RepoPaths.parent(dir)) {
      String candidate = RepoPaths.normalize(RepoPaths.join(dir, wanted));
      if (candidate != null
          && (reader.tree().isFile(candidate) || reader.tree().isDirectory(candidate))) {
        return absolute(candidate);
      }
    }
    if (arguments.size() > 1) {
      return arguments.get(1).get();
    }
    return Unknown.at(
        file,
        line,
        "find_in_parent_folders(): no '"
            + wanted
            + "' in any folder above "
            + (terragruntDir.isEmpty() ? "the repository root" : terragruntDir));
  }

  private interface IncludePath {
    Object apply(String includeFile);
  }

  /** Runs a function about "the include": this included file, or the unit's named or only one. */
  private Object includeRelated(
      List<Supplier<Object>> arguments, String file, int line, IncludePath function) {
    if (includedFile != null) {
      return function.apply(includedFile);
    }
    if (resolvingIncludes) {
      return Unknown.at(file, line, "an include path cannot depend on the include itself");
    }
    Map<String, Include> all = includes();
    if (!arguments.isEmpty()) {
      Object label = arguments.get(0).get();
      Include include = all.get(label);
      return include == null
          ? Unknown.at(file, line, "no include named " + Evaluator.describe(label))
          : function.apply(include.file());
    }
    if (all.isEmpty()) {
      return ".";
    }
    if (all.size() > 1) {
      return Unknown.at(file, line, "the config has several includes; name the one you mean");
    }
    return function.apply(all.values().iterator().next().file());
  }

  private Object getEnv(List<Supplier<Object>> arguments, String file, int line) {
    if (arguments.isEmpty()) {
      return Unknown.at(file, line, "get_env() needs a variable name");
    }
    Object name = arguments.get(0).get();
    if (!(name instanceof String variable)) {
      return name instanceof Unknown
          ? name
          : Unknown.at(file, line, "get_env() needs a variable name");
    }
    String value = reader.environment().get(variable);
    if (value != null) {
      return value;
    }
    if (arguments.size() > 1) {
      return arguments.get(1).get();
    }
    return Unknown.at(file, line, "get_env(): " + variable + " is not set and has no default");
  }

  private Object readTerragruntConfig(List<Supplier<Object>> arguments, String file, int line) {
    if (arguments.isEmpty()) {
      return Unknown.at(file, line, "read_terragrunt_config() needs a path");
    }
    Object argument = arguments.get(0).get();
    if (!(argument instanceof String path)) {
      return argument instanceof Unknown
          ? argument
          : Unknown.at(file, line, "read_terragrunt_config() needs a path");
    }
    String target = toRepoPath(path);
    if (target == null || !reader.tree().isFile(target)) {
      return arguments.size() > 1
          ? arguments.get(1).get()
          : Unknown.at(file, line, "read_terragrunt_config(): '" + path + "' does not exist");
    }
    if (readStack.contains(target)) {
      return Unknown.at(
          file,
          line,
          "read_terragrunt_config() cycle: " + String.join(" -> ", readStack) + " -> " + target);
    }
    ReadResult result = reader.cachedRead(target);
    if (result == null) {
      result = evaluateReadFile(target);
      reader.cacheRead(target, result);
    }
    reads.add(new FileRead(target, FileRead.Via.READ_TERRAGRUNT_CONFIG));
    result
        .reads()
        .forEach(
            inner -> reads.add(new FileRead(inner.path(), FileRead.Via.READ_TERRAGRUNT_CONFIG)));
    return result.value();
  }

  private ReadResult evaluateReadFile(String target) {
    List<String> stack = new ArrayList<>(readStack);
    stack.add(target);
    Set<FileRead> innerReads = new LinkedHashSet<>();
    ConfigEvaluation config =
        new ConfigEvaluation(
            reader,
            reader.document(target),
            RepoPaths.parent(target),
            null,
            innerReads,
            new ArrayList<>(),
            List.copyOf(stack));
    Map<String, Object> value = new LinkedHashMap<>();
    value.put("locals", materialize(new LazyMap(config.localDefinitions.keySet(), config::local)));
    config
        .document
        .attributes()
        .forEach(
            (name, attribute) ->
                value.put(name, materialize(config.evaluator.evaluate(attribute.value()))));
    value.put("dependency", materialize(config.variable("dependency", target, 0)));
    config.evaluateEverything();
    return new ReadResult(Collections.unmodifiableMap(value), Set.copyOf(innerReads));
  }

  private Object readFile(List<Supplier<Object>> arguments, String file, int line) {
    Object argument = arguments.isEmpty() ? null : arguments.get(0).get();
    if (!(argument instanceof String path)) {
      return argument instanceof Unknown ? argument : Unknown.at(file, line, "file() needs a path");
    }
    String target = toRepoPath(path);
    if (target == null || !reader.tree().isFile(target)) {
      return Unknown.at(file, line, "file(): '" + path + "' does not exist");
    }
    reads.add(new FileRead(target, FileRead.Via.FILE));
    return reader.tree().read(target);
  }

  // ---------------------------------------------------------------- paths

  private String absolute(String repoPath) {
    String root = reader.tree().root();
    return repoPath.isEmpty() ? root : root + "/" + repoPath;
  }

  /**
   * The repo-relative form of a path from a config: absolute, or relative to the terragrunt
   * directory; {@code null} when it leads outside the repository.
   */
  private String toRepoPath(String path) {
    String root = reader.tree().root();
    if (path.startsWith("/")) {
      String normalizedRoot = root.endsWith("/") ? root.substring(0, root.length() - 1) : root;
      String normalized = "/" + RepoPaths.normalize(path.substring(1));
      if (normalized.equals(normalizedRoot)) {
        return "";
      }
      return normalized.startsWith(normalizedRoot + "/")
          ? normalized.substring(normalizedRoot.length() + 1)
          : null;
    }
    return RepoPaths.normalize(RepoPaths.join(terragruntDir, path));
  }

  private static Object materialize(Object value) {
    if (value instanceof Map<?, ?> map) {
      Map<Object, Object> copy = new LinkedHashMap<>();
      map.forEach((key, item) -> copy.put(key, materialize(item)));
      return Collections.unmodifiableMap(copy);
    }
    if (value instanceof List<?> list) {
      return list.stream().map(ConfigEvaluation::materialize).toList();
    }
    return value;
  }

  /** A read-only map whose values are computed on first access. */
  private static final class LazyMap extends AbstractMap<String, Object> {
    private final Set<String> keys;
    private final java.util.function.Function<String, Object> compute;
    private final Map<String, Object> computed = new HashMap<>();

    LazyMap(Set<String> keys, java.util.function.Function<String, Object> compute) {
      this.keys = keys;
      this.compute = compute;
    }

    @Override
    public boolean containsKey(Object key) {
      return keys.contains(key);
    }

    @Override
    public Object get(Object key) {
      if (!keys.contains(key)) {
        return null;
      }
      String name = (String) key;
      if (!computed.containsKey(name)) {
        computed.put(name, compute.apply(name));
      }
      return computed.get(name);
    }

    @Override
    public Set<Entry<String, Object>> entrySet() {
      Set<Entry<String, Object>> entries = new LinkedHashSet<>();
      for (String key : keys) {
        entries.add(new SimpleImmutableEntry<>(key, get(key)));
      }
      return entries;
    }
  }
}
