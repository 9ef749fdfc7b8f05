package io.livegate.scan.graph;

import io.livegate.core.DaemonThreads;
import io.livegate.core.LivegateException;
import io.livegate.core.ProgressListener;
import io.livegate.core.RepoPaths;
import io.livegate.core.account.Account;
import io.livegate.core.account.Accounts;
import io.livegate.scan.repo.RemoteSources;
import io.livegate.scan.repo.SourceTree;
import io.livegate.scan.terragrunt.DependencyDeclaration;
import io.livegate.scan.terragrunt.FileRead;
import io.livegate.scan.terragrunt.InvalidTerragruntConfig;
import io.livegate.scan.terragrunt.Stacks;
import io.livegate.scan.terragrunt.TerragruntConfigReader;
import io.livegate.scan.terragrunt.TerragruntVersion;
import io.livegate.scan.terragrunt.UnitConfig;
import io.livegate.scan.terragrunt.UnitDiscovery;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

/**
 * Every unit of one revision with its account, its config, who depends on it, and which units read
 * each file outside their own directory. Built once per scan; immutable after.
 */
public final class UnitGraph {
  private final SortedMap<String, Account> accounts;
  private final Map<String, UnitConfig> configs;
  private final Map<String, SortedSet<String>> dependents = new HashMap<>();

  /**
   * Who reads each path, one entry per unit and way, in no order. A path such as a root config has
   * as many readers as the repository has units; a list, resolved only for the few paths a change
   * touches, costs a fraction of a map per path.
   */
  private final Map<String, List<Reader>> readers = new HashMap<>();

  private final List<String> warnings;
  private final SortedMap<String, String> excluded = new TreeMap<>();
  private final Set<String> notAsRead;

  private UnitGraph(
      SortedMap<String, Account> accounts,
      Map<String, UnitConfig> configs,
      List<String> warnings,
      Set<String> notAsRead) {
    this.accounts = accounts;
    this.configs = configs;
    this.warnings = List.copyOf(warnings);
    this.notAsRead = Set.copyOf(notAsRead);
    computeExclusions();
    for (UnitConfig config : configs.values()) {
      for (DependencyDeclaration dependency : config.dependencies()) {
        dependents.computeIfAbsent(dependency.target(), unit -> new TreeSet<>()).add(config.unit());
      }
      for (FileRead read : config.reads()) {
        readers
            .computeIfAbsent(read.path(), path -> new ArrayList<>())
            .add(new Reader(config.unit(), read.via()));
      }
    }
  }

  /**
   * Discovers and reads every unit of {@code tree}, {@code parallelism} at a time.
   *
   * @param version the terragrunt release whose rules apply where releases differ
   * @param allowPartial whether a unit that cannot be read, or a dependency on something other than
   *     a unit, is a warning (the unit stays, with no dependencies or reads) instead of an error
   * @param remoteSources fetches stack sources that live outside the repository
   * @throws InvalidTerragruntConfig listing every unit that cannot be read, and every dependency
   *     that points at something other than a unit, unless {@code allowPartial}
   */
  public static UnitGraph read(
      SourceTree tree,
      Accounts accountConfig,
      Map<String, String> environment,
      TerragruntVersion version,
      int parallelism,
      ProgressListener progress,
      boolean allowPartial,
      RemoteSources remoteSources) {
    return read(
        tree,
        accountConfig,
        environment,
        version,
        parallelism,
        progress,
        allowPartial,
        remoteSources,
        unit -> null);
  }

  /**
   * As {@link #read(SourceTree, Accounts, Map, TerragruntVersion, int, ProgressListener, boolean,
   * RemoteSources)}, taking the config of a unit from {@code alreadyRead} where it gives one
   * instead of reading the unit's files.
   *
   * @param alreadyRead the config of a unit as read from the very same files (in another commit
   *     whose files the unit reads are unchanged), or {@code null} to read the unit; never asked
   *     about a unit that a stack of {@code tree} generates
   */
  public static UnitGraph read(
      SourceTree tree,
      Accounts accountConfig,
      Map<String, String> environment,
      TerragruntVersion version,
      int parallelism,
      ProgressListener progress,
      boolean allowPartial,
      RemoteSources remoteSources,
      Function<String, UnitConfig> alreadyRead) {
    Stacks stacks = Stacks.expand(tree, environment, remoteSources);
    SortedMap<String, Account> units = UnitDiscovery.discover(stacks.tree(), accountConfig);
    List<String> warnings = new ArrayList<>();
    stacks
        .catalogUnits()
        .forEach(
            (dir, generated) -> {
              if (units.remove(UnitDiscovery.unitId(dir)) != null) {
                warnings.add(
                    UnitDiscovery.configFile(UnitDiscovery.unitId(dir))
                        + " is the source of units that stacks generate (such as "
                        + generated
                        + "), so it is a catalog unit, not a unit");
              }
            });
    progress.progress("found " + units.size() + " units");
    TerragruntConfigReader reader = new TerragruntConfigReader(stacks, environment, version);
    List<String> ids = new ArrayList<>(units.keySet());
    Map<String, UnitConfig> configs = new HashMap<>();
    SortedMap<String, List<String>> problems = new TreeMap<>();
    stacks
        .problems()
        .forEach(
            (unit, message) -> {
              // As a broken unit outside every account is never read, so a stack that would
              // generate there stops nothing.
              if (accountConfig.accountOf(problemDirectory(unit)).isPresent()) {
                problems.put(unit, new ArrayList<>(List.of(message)));
              }
            });
    AtomicInteger done = new AtomicInteger();
    int reportEvery = Math.max(1000, ids.size() / 10);
    ExecutorService pool = DaemonThreads.pool(parallelism, "livegate-read");
    try {
      List<Future<List<Object>>> batches = new ArrayList<>();
      int batchSize = Math.max(16, ids.size() / (parallelism * 8) + 1);
      for (int start = 0; start < ids.size(); start += batchSize) {
        List<String> batch = ids.subList(start, Math.min(ids.size(), start + batchSize));
        batches.add(
            pool.submit(
                () -> {
                  List<Object> results = new ArrayList<>(batch.size());
                  for (String unit : batch) {
                    try {
                      UnitConfig known =
                          stacks.units().containsKey(unit) ? null : alreadyRead.apply(unit);
                      results.add(known != null ? known : reader.read(unit));
                    } catch (LivegateException e) {
                      results.add(new Problem(unit, e.getMessage()));
                    }
                    int count = done.incrementAndGet();
                    if (count % reportEvery == 0) {
                      progress.progress("read " + count + "/" + ids.size() + " unit configs");
                    }
                  }
                  return results;
                }));
      }
      for (Future<List<Object>> batch : batches) {
        for (Object result : batch.get()) {
          if (result instanceof UnitConfig config) {
            configs.put(config.unit(), config);
          } else {
            Problem problem = (Problem) result;
            problems.put(problem.unit(), new ArrayList<>(List.of(problem.message())));
          }
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new LivegateException("interrupted while reading unit configs", e);
    } catch (ExecutionException e) {
      throw new LivegateException("reading unit configs failed: " + e.getCause(), e.getCause());
    } finally {
      pool.shutdownNow();
    }
    for (UnitConfig config : configs.values()) {
      for (DependencyDeclaration dependency : config.dependencies()) {
        // A unit a stack could not generate is already one problem; its dependents add none.
        if (!units.containsKey(dependency.target()) && !problems.containsKey(dependency.target())) {
          problems
              .computeIfAbsent(config.unit(), unit -> new ArrayList<>())
              .add(notAUnit(stacks.tree(), dependency));
        }
      }
    }
    if (!problems.isEmpty() && !allowPartial) {
      throw new InvalidTerragruntConfig(describe(problems));
    }
    for (String unit : problems.keySet()) {
      if (!units.containsKey(unit)) {
        // A unit a stack could not generate, or a stack block: nothing of it can be read.
        continue;
      }
      UnitConfig config = configs.get(unit);
      List<DependencyDeclaration> resolved =
          config == null
              ? List.of()
              : config.dependencies().stream()
                  .filter(dependency -> units.containsKey(dependency.target()))
                  .toList();
      configs.put(
          unit,
          new UnitConfig(
              unit,
              resolved,
              config == null ? Set.of() : config.reads(),
              config == null ? List.of() : config.warnings(),
              config == null ? Optional.empty() : config.exclusion(),
              config == null ? Optional.empty() : config.stackFingerprint()));
    }
    describe(problems).forEach(problem -> warnings.add("--allow-partial: " + problem));
    return new UnitGraph(units, configs, warnings, problems.keySet());
  }

  /**
   * One line per problem, so a unit with two bad dependencies is two problems. A broken file that
   * many units include or read fails each of them with the same message, so it is one problem,
   * listed once with the units it stops; a problem in a file other than the unit's own config names
   * the unit too.
   */
  private static List<String> describe(SortedMap<String, List<String>> problems) {
    Map<String, List<String>> unitsByProblem = new LinkedHashMap<>();
    problems.forEach(
        (unit, messages) ->
            messages.forEach(
                message ->
                    unitsByProblem.computeIfAbsent(message, key -> new ArrayList<>()).add(unit)));
    List<String> lines = new ArrayList<>();
    unitsByProblem.forEach(
        (message, affected) -> {
          String ownConfig = UnitDiscovery.configFile(affected.get(0));
          boolean inOwnConfig = affected.size() == 1 && message.startsWith(ownConfig + ":");
          lines.add(
              inOwnConfig
                  ? message
                  : message
                      + " (unit"
                      + (affected.size() == 1 ? " " : "s ")
                      + String.join(", ", affected)
                      + ")");
        });
    return lines;
  }

  private record Problem(String unit, String message) {}

  private record Reader(String unit, FileRead.Via via) {}

  /**
   * The directory a stack problem is about: the unit it would generate, or for a problem of the
   * stack file itself (keyed {@code file:line}) the stack's directory.
   */
  private static String problemDirectory(String key) {
    int colon = key.lastIndexOf(':');
    if (colon > 0
        && key.substring(0, colon).endsWith(".hcl")
        && key.substring(colon + 1).chars().allMatch(Character::isDigit)) {
      String parent = RepoPaths.parent(key.substring(0, colon));
      return parent == null ? "" : parent;
    }
    return UnitDiscovery.directory(key);
  }

  private static String notAUnit(SourceTree tree, DependencyDeclaration dependency) {
    String target = dependency.target();
    String what;
    if (tree.isFile(UnitDiscovery.configFile(target))) {
      what =
          UnitDiscovery.isSkipped(UnitDiscovery.directory(target))
              ? "is in a .git, .terraform or .terragrunt-cache directory, which terragrunt skips"
              : "is not under any account's path";
    } else if (tree.isDirectory(UnitDiscovery.directory(target))) {
      what = "is a directory with no " + TerragruntConfigReader.CONFIG_FILE;
    } else {
      what = "does not exist";
    }
    return dependency.where() + ": depends on '" + target + "', which " + what;
  }

  /**
   * The units terragrunt leaves out of plan and apply, each with why: its own {@code exclude} or
   * {@code skip}, or, for each unit it depends on directly, a unit's exclude with {@code
   * exclude_dependencies}. Only direct dependencies are left out: terragrunt marks {@code
   * unit.Dependencies()} and goes no further (v1.1.3 internal/discovery/discovery.go {@code
   * applyExcludeModules}; v0.92.0 internal/runner/common/unit_resolver.go).
   */
  private void computeExclusions() {
    List<UnitConfig> excludingDependencies = new ArrayList<>();
    for (UnitConfig config : configs.values()) {
      config.exclusion().ifPresent(exclusion -> excluded.put(config.unit(), exclusion.where()));
      if (config.exclusion().isPresent() && config.exclusion().get().excludeDependencies()) {
        excludingDependencies.add(config);
      }
    }
    // By unit, so that a dependency two units leave out always names the same one.
    excludingDependencies.sort(Comparator.comparing(UnitConfig::unit));
    for (UnitConfig config : excludingDependencies) {
      for (DependencyDeclaration dependency : config.dependencies()) {
        String target = dependency.target();
        if (configs.containsKey(target) && !excluded.containsKey(target)) {
          excluded.put(
              target,
              "a dependency of "
                  + config.unit()
                  + ", whose "
                  + config.exclusion().get().where()
                  + " leaves out its dependencies");
        }
      }
    }
  }

  /** The units left out by their configs or a dependent's, with why; sorted by unit. */
  public SortedMap<String, String> excluded() {
    return excluded;
  }

  /** What reading the graph noticed that does not stop a scan, such as catalog units. */
  public List<String> warnings() {
    return warnings;
  }

  public SortedSet<String> units() {
    return new TreeSet<>(accounts.keySet());
  }

  public boolean isUnit(String path) {
    return accounts.containsKey(path);
  }

  public Account account(String unit) {
    return accounts.get(unit);
  }

  public UnitConfig config(String unit) {
    return configs.get(unit);
  }

  /**
   * The config of {@code unit} exactly as its files gave it: empty when the unit could not be read,
   * or lost dependencies to {@code --allow-partial}, or is not a unit.
   */
  public Optional<UnitConfig> configAsRead(String unit) {
    return notAsRead.contains(unit) ? Optional.empty() : Optional.ofNullable(configs.get(unit));
  }

  /** The units that declare a dependency on {@code unit}, sorted. */
  public SortedSet<String> dependents(String unit) {
    return dependents.getOrDefault(unit, new TreeSet<>());
  }

  /** The units that read {@code path} or a module directory holding it, with how they read it. */
  public SortedMap<String, FileRead.Via> readersOf(String path) {
    SortedMap<String, FileRead.Via> found = new TreeMap<>();
    for (String current = path; current != null; current = RepoPaths.parent(current)) {
      List<Reader> direct = readers.get(current);
      if (direct != null) {
        // A unit may reach one file two ways (include it and read it too). Its reads are a set
        // with no stable order, so the way reported is chosen by rank, never by iteration order.
        Map<String, FileRead.Via> byUnit = new HashMap<>();
        for (Reader reader : direct) {
          byUnit.merge(reader.unit(), reader.via(), (a, b) -> a.compareTo(b) <= 0 ? a : b);
        }
        byUnit.forEach(found::putIfAbsent);
      }
      if (current.isEmpty()) {
        break;
      }
    }
    return found;
  }

  /** The dependency edges whose both ends are in {@code units}. */
  public List<Edge> edgesWithin(Collection<String> units) {
    Set<String> members = units instanceof Set<String> set ? set : new TreeSet<>(units);
    List<Edge> edges = new ArrayList<>();
    for (String unit : members) {
      for (DependencyDeclaration dependency : configs.get(unit).dependencies()) {
        if (members.contains(dependency.target())) {
          edges.add(new Edge(unit, dependency.target(), dependency.where()));
        }
      }
    }
    return edges;
  }
}
