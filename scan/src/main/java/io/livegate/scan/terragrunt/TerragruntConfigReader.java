package io.livegate.scan.terragrunt;

import io.livegate.scan.hcl.HclDocument;
import io.livegate.scan.hcl.InvalidHcl;
import io.livegate.scan.hcl.Unknown;
import io.livegate.scan.repo.SourceTree;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Reads units' terragrunt configs from a {@link SourceTree} without running terragrunt: their
 * dependencies, with includes merged, and every file outside the unit that they read.
 *
 * <p>Thread-safe: a scan reads many units in parallel. Parsed files and the results of {@code
 * read_terragrunt_config()} are cached, because a read file is evaluated in its own directory and
 * so has one value however many units read it.
 */
public final class TerragruntConfigReader {
  /** The file that makes a directory a unit. */
  public static final String CONFIG_FILE = "terragrunt.hcl";

  private final SourceTree tree;
  private final Stacks stacks;
  private final Map<String, String> environment;
  private final TerragruntVersion version;
  private final LocalModules modules;
  private final Map<String, Object> documents = new ConcurrentHashMap<>();
  private final Map<String, ConfigEvaluation.ReadResult> readConfigs = new ConcurrentHashMap<>();

  /**
   * One instance of each file read, whichever units read it: most units read the same few root,
   * account and region files, and a graph indexes every read of every unit, which goes several
   * times faster over a few shared objects than over a copy per unit scattered through the heap.
   */
  private final Map<FileRead, FileRead> sharedReads = new ConcurrentHashMap<>();

  /**
   * @param environment what {@code get_env()} sees; the caller decides, so core never reads the
   *     process environment
   */
  public TerragruntConfigReader(SourceTree tree, Map<String, String> environment) {
    this(tree, null, environment, TerragruntVersion.DEFAULT);
  }

  /**
   * Reads the units of {@code stacks}' tree, generated units included, with their values.
   *
   * @param version the terragrunt release whose rules apply where releases differ
   */
  public TerragruntConfigReader(
      Stacks stacks, Map<String, String> environment, TerragruntVersion version) {
    this(stacks.tree(), stacks, environment, version);
  }

  private TerragruntConfigReader(
      SourceTree tree, Stacks stacks, Map<String, String> environment, TerragruntVersion version) {
    this.tree = tree;
    this.stacks = stacks;
    this.environment = Map.copyOf(environment);
    this.version = version;
    this.modules = new LocalModules(tree);
  }

  /**
   * Reads the unit at {@code unit}.
   *
   * @throws InvalidHcl when a file it needs cannot be parsed
   * @throws InvalidTerragruntConfig when its dependencies cannot be worked out
   */
  public UnitConfig read(String unit) {
    String file = UnitDiscovery.configFile(unit);
    Set<FileRead> reads = new LinkedHashSet<>();
    List<String> warnings = new ArrayList<>();
    // A unit's own config is parsed here and not cached: only included and read files are shared
    // between units, and keeping every unit's tree would hold the whole repository in memory.
    ConfigEvaluation config =
        ConfigEvaluation.forUnit(
            this,
            HclDocument.parse(file, tree.read(file)),
            UnitDiscovery.directory(unit),
            reads,
            warnings);
    GeneratedUnit generated = stacks == null ? null : stacks.units().get(unit);
    if (generated != null) {
      config.withValues(generated.values());
    }
    List<DependencyDeclaration> dependencies = config.dependencies();
    Optional<Exclusion> exclusion = config.exclusion();
    ConfigEvaluation.TerraformDirectory terraform = config.terraformDirectory();
    if (terraform.copied() != null) {
      reads.add(
          new FileRead(
              terraform.copied(),
              terraform.declared()
                  ? FileRead.Via.TERRAFORM_SOURCE
                  : FileRead.Via.TERRAFORM_DIRECTORY));
      for (String module : modules.calledFrom(terraform.workingDirectory())) {
        reads.add(new FileRead(module, FileRead.Via.MODULE_SOURCE));
      }
    }
    config.evaluateEverything();
    // Reads name paths of the generated tree; a change touches the committed file behind each.
    Set<FileRead> committed = new LinkedHashSet<>();
    for (FileRead read : reads) {
      committed.add(
          shared(stacks == null ? read : new FileRead(stacks.realPath(read.path()), read.via())));
    }
    if (stacks == null) {
      return new UnitConfig(unit, dependencies, committed, warnings, exclusion, Optional.empty());
    }
    if (generated != null) {
      generated.reads().forEach(read -> committed.add(shared(read)));
    }
    return new UnitConfig(
        unit,
        dependencies,
        committed,
        warnings,
        exclusion,
        Optional.ofNullable(generated).map(GeneratedUnit::fingerprint));
  }

  private FileRead shared(FileRead read) {
    FileRead known = sharedReads.putIfAbsent(read, read);
    return known == null ? read : known;
  }

  SourceTree tree() {
    return tree;
  }

  Map<String, String> environment() {
    return environment;
  }

  TerragruntVersion version() {
    return version;
  }

  /** The parsed file, parsed once per scan; a parse failure is cached and thrown again. */
  HclDocument document(String file) {
    Object cached =
        documents.computeIfAbsent(
            file,
            path -> {
              try {
                return HclDocument.parse(path, tree.read(path));
              } catch (InvalidHcl e) {
                return e;
              }
            });
    if (cached instanceof InvalidHcl failure) {
      throw new InvalidHcl(failure.file(), failure.line(), failure.column(), failure.problem());
    }
    return (HclDocument) cached;
  }

  ConfigEvaluation.ReadResult cachedRead(String file) {
    return readConfigs.get(file);
  }

  void cacheRead(String file, ConfigEvaluation.ReadResult result) {
    readConfigs.putIfAbsent(file, result);
  }

  /** A value that says why a name is not known at scan time. */
  static Unknown notKnownAtScanTime(String what, String file, int line) {
    return Unknown.at(
        file, line, what + " is not known when livegate scans (it is not applied yet)");
  }
}
