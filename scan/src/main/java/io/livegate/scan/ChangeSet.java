package io.livegate.scan;

import io.livegate.core.ProgressListener;
import io.livegate.core.RepoPaths;
import io.livegate.core.account.Account;
import io.livegate.core.account.Accounts;
import io.livegate.core.stack.AccountOrder;
import io.livegate.core.stack.DeletedUnit;
import io.livegate.core.stack.DeployStack;
import io.livegate.core.stack.ExcludedUnit;
import io.livegate.core.stack.PlannedExecution;
import io.livegate.core.stack.Reason;
import io.livegate.core.stack.ScanMode;
import io.livegate.scan.graph.Layering;
import io.livegate.scan.graph.UnitGraph;
import io.livegate.scan.repo.FileChange;
import io.livegate.scan.repo.GitRepo;
import io.livegate.scan.repo.RemoteSources;
import io.livegate.scan.terragrunt.DependencyDeclaration;
import io.livegate.scan.terragrunt.FileRead;
import io.livegate.scan.terragrunt.TerragruntConfigReader;
import io.livegate.scan.terragrunt.UnitConfig;
import io.livegate.scan.terragrunt.UnitDiscovery;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Deque;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.regex.Pattern;

/**
 * From changed units to a deploy stack: which units changed, which were deleted, every unit that
 * depends on them, and the order.
 */
final class ChangeSet {
  private ChangeSet() {}

  /** Changed units with their reasons, and deleted units. */
  record Changes(SortedMap<String, Set<Reason>> changed, SortedMap<String, DeletedUnit> deleted) {}

  /**
   * Maps changed files to units, using the graphs of both commits, by what terraform and terragrunt
   * read. A file changes, whatever its name: every unit that read it (or tried to and found it
   * missing) at the head or at the base; every unit whose terraform runs in the directory holding
   * it (its own directory without a {@code terraform.source}, or a local source that terragrunt
   * copies whole) or calls a local module holding it. Only a file in a unit's own directory that
   * none of these reach, beside a unit whose terraform runs elsewhere, is matched against {@code
   * filePattern}. A file whose innermost unit existed only at the base marks that unit as deleted.
   */
  static Changes fromFiles(
      List<FileChange> files, Pattern filePattern, UnitGraph head, UnitGraph base) {
    SortedMap<String, Set<Reason>> changed = new TreeMap<>();
    SortedMap<String, Set<Reason>> deleted = new TreeMap<>();
    for (FileChange change : files) {
      for (String path : change.paths()) {
        SortedMap<String, FileRead.Via> readers = new TreeMap<>(head.readersOf(path));
        base.readersOf(path)
            .forEach(
                (reader, via) -> {
                  if (head.isUnit(reader)) {
                    readers.putIfAbsent(reader, via);
                  } else if (via == FileRead.Via.STACK) {
                    deleted
                        .computeIfAbsent(reader, unit -> new LinkedHashSet<>())
                        .add(new Reason(Reason.Kind.DELETED_FILE, path, null));
                  }
                });
        // A listing is read again at each commit; the files it matched are what change a unit.
        readers.values().removeIf(via -> via == FileRead.Via.FILESET);
        boolean matches = filePattern.matcher(path).matches();
        Optional<String> headOwner = innermostUnit(path, head);
        Optional<String> baseOwner = innermostUnit(path, base);
        // A unit's own directory is where its terraform runs only for the unit itself; a unit
        // nested in it, at either commit, has its own.
        Optional<String> owner =
            baseOwner.isPresent()
                    && (headOwner.isEmpty()
                        || UnitDiscovery.directory(baseOwner.get()).length()
                            > UnitDiscovery.directory(headOwner.get()).length())
                ? baseOwner
                : headOwner;
        readers
            .entrySet()
            .removeIf(
                reader ->
                    reader.getValue() == FileRead.Via.TERRAFORM_DIRECTORY
                        && !owner.equals(Optional.of(reader.getKey())));
        // A stack file generates many units; a change to it changes those whose generation
        // (source, path, values) differs between the commits.
        readers
            .entrySet()
            .removeIf(
                reader ->
                    reader.getValue() == FileRead.Via.STACK
                        && sameGeneration(reader.getKey(), head, base));
        if (baseOwner.isPresent()
            && !head.isUnit(baseOwner.get())
            && (headOwner.isEmpty()
                || UnitDiscovery.directory(baseOwner.get()).length()
                    > UnitDiscovery.directory(headOwner.get()).length())) {
          if (matches) {
            deleted
                .computeIfAbsent(baseOwner.get(), unit -> new LinkedHashSet<>())
                .add(new Reason(Reason.Kind.DELETED_FILE, path, null));
          }
        } else if (headOwner.isPresent() && (matches || readers.containsKey(headOwner.get()))) {
          changed
              .computeIfAbsent(headOwner.get(), unit -> new LinkedHashSet<>())
              .add(Reason.changedFile(path));
        }
        readers.forEach(
            (reader, via) -> {
              if (!headOwner.equals(Optional.of(reader))) {
                changed
                    .computeIfAbsent(reader, unit -> new LinkedHashSet<>())
                    .add(Reason.readsChangedFile(path, via.label()));
              }
            });
      }
    }
    SortedMap<String, DeletedUnit> deletedUnits = new TreeMap<>();
    deleted.forEach(
        (unit, reasons) ->
            deletedUnits.put(
                unit, DeletedUnit.found(unit, base.account(unit).name(), List.copyOf(reasons))));
    return new Changes(changed, deletedUnits);
  }

  /**
   * The graph at the base commit, which tells which units existed and what they read before the
   * merge. It is read leniently: a unit that cannot be read at the base keeps no reads there, and
   * the head graph, which is read as strictly as the command asks, decides the stack.
   *
   * <p>Only the units that {@code files} can have changed are read again: a unit's config is a
   * function of the files it reads (its own config, includes, read and probed files, listed
   * directories) and of the environment, so a unit none of whose files changed has at the base the
   * very config it has at {@code head}, and that one is taken.
   */
  static UnitGraph baseGraph(
      GitRepo repo,
      String base,
      ScanCommand command,
      RemoteSources remoteSources,
      UnitGraph head,
      List<FileChange> files) {
    return UnitGraph.read(
        repo.tree(base),
        command.accounts(),
        command.environment(),
        command.terragruntVersion(),
        command.parallelism(),
        ProgressListener.silent(),
        true,
        remoteSources,
        unchangedConfigs(head, files));
  }

  /**
   * For reading the other commit of {@code files}: the config a unit has at {@code head} when
   * {@code files} cannot have changed it, else {@code null} (read it).
   */
  static Function<String, UnitConfig> unchangedConfigs(UnitGraph head, List<FileChange> files) {
    Set<String> affected = affectedUnits(head, files);
    return unit ->
        affected.contains(unit)
            ? null
            : head.configAsRead(unit)
                .filter(config -> config.stackFingerprint().isEmpty())
                .orElse(null);
  }

  /**
   * The units of {@code head} whose config may differ at the other end of {@code files}: those that
   * read a changed file or a directory holding one, whose own config changed, or that depend on a
   * path whose config file changed (whether a {@code .hcl} path names a file or a unit depends on
   * the file being there).
   */
  static Set<String> affectedUnits(UnitGraph head, List<FileChange> files) {
    Set<String> affected = new TreeSet<>();
    for (FileChange change : files) {
      for (String path : change.paths()) {
        affected.addAll(head.readersOf(path).keySet());
        String dir = RepoPaths.parent(path);
        if (dir != null && RepoPaths.fileName(path).endsWith(".hcl")) {
          if (RepoPaths.fileName(path).equals(TerragruntConfigReader.CONFIG_FILE)) {
            affected.add(UnitDiscovery.unitId(dir));
          }
          affected.addAll(head.dependents(UnitDiscovery.unitId(dir)));
          affected.addAll(head.dependents(UnitDiscovery.unitId(path)));
        }
      }
    }
    return affected;
  }

  private static boolean sameGeneration(String unit, UnitGraph head, UnitGraph base) {
    return base.isUnit(unit)
        && head.config(unit).stackFingerprint().equals(base.config(unit).stackFingerprint());
  }

  /** The innermost unit of {@code graph} whose directory holds {@code path}. */
  private static Optional<String> innermostUnit(String path, UnitGraph graph) {
    for (String dir = RepoPaths.parent(path); dir != null; dir = RepoPaths.parent(dir)) {
      String unit = UnitDiscovery.unitId(dir);
      if (graph.isUnit(unit)) {
        return Optional.of(unit);
      }
    }
    return Optional.empty();
  }

  /**
   * The deploy stack for {@code changed}: those units plus every unit that depends on them,
   * transitively, in layers.
   */
  static DeployStack deployStack(
      ScanMode mode,
      String base,
      String head,
      UnitGraph graph,
      ScanCommand command,
      SortedMap<String, Set<Reason>> changed,
      SortedMap<String, DeletedUnit> deleted) {
    Accounts accounts = command.accounts();
    Optional<String> everyUnitLeftOut = everyUnitLeftOut(graph, command);
    SortedSet<String> members = withDependents(changed.keySet(), graph, Set.of());
    List<ExcludedUnit> excluded = new ArrayList<>();
    SortedSet<String> left = new TreeSet<>(members);
    left.retainAll(graph.excluded().keySet());
    for (String unit : left) {
      excluded.add(new ExcludedUnit(unit, graph.account(unit).name(), graph.excluded().get(unit)));
    }
    if (!left.isEmpty()) {
      // A unit left out is not applied, so what depends only on it has nothing new to deploy.
      members = withDependents(changed.keySet(), graph, graph.excluded().keySet());
    }
    Map<String, Integer> layers =
        Layering.layers(members, graph.edgesWithin(members), graph::account, accounts);
    List<PlannedExecution> executions = new ArrayList<>();
    Set<String> warnings = new LinkedHashSet<>();
    for (String unit : members) {
      SortedSet<String> dependsOn = new TreeSet<>();
      for (DependencyDeclaration dependency : graph.config(unit).dependencies()) {
        if (members.contains(dependency.target())) {
          dependsOn.add(dependency.target());
        }
      }
      List<Reason> reasons = new ArrayList<>(changed.getOrDefault(unit, Set.of()));
      if (reasons.isEmpty()) {
        dependsOn.forEach(dependency -> reasons.add(Reason.dependsOn(dependency)));
      }
      executions.add(
          new PlannedExecution(
              unit, graph.account(unit).name(), List.copyOf(dependsOn), layers.get(unit), reasons));
      warnings.addAll(graph.config(unit).warnings());
    }
    warnings.addAll(graph.warnings());
    everyUnitLeftOut.ifPresent(warnings::add);
    executions.sort(
        Comparator.comparingInt(PlannedExecution::layer).thenComparing(PlannedExecution::unit));
    SortedSet<String> touched = new TreeSet<>();
    executions.forEach(execution -> touched.add(execution.account()));
    deleted.values().forEach(unit -> touched.add(unit.account()));
    List<AccountOrder> accountOrders = new ArrayList<>();
    for (String name : touched) {
      Account account = accounts.get(name);
      accountOrders.add(new AccountOrder(account.name(), account.path(), account.dependsOn()));
    }
    return new DeployStack(
        mode,
        base,
        head,
        accountOrders,
        executions,
        List.copyOf(deleted.values()),
        excluded,
        List.copyOf(warnings));
  }

  /**
   * When {@code exclude} or {@code skip} leaves out every unit of the graph, nothing can ever be
   * deployed from it, which is almost always a rule read the wrong way (an inherited root {@code
   * skip = true}) rather than the intent: an error, or with {@link
   * ScanCommand#everyUnitLeftOutIsWarning()} the warning returned.
   *
   * @throws EveryUnitLeftOut naming what leaves the units out
   */
  private static Optional<String> everyUnitLeftOut(UnitGraph graph, ScanCommand command) {
    if (graph.units().isEmpty() || graph.excluded().size() < graph.units().size()) {
      return Optional.empty();
    }
    SortedSet<String> why = new TreeSet<>(graph.excluded().values());
    String message =
        "every unit ("
            + graph.units().size()
            + ") is left out under terragrunt "
            + command.terragruntVersion()
            + "'s rules, so nothing would ever be deployed: "
            + String.join("; ", why.stream().limit(5).toList())
            + (why.size() > 5 ? "; and " + (why.size() - 5) + " more" : "");
    if (!command.everyUnitLeftOutIsWarning()) {
      throw new EveryUnitLeftOut(
          message
              + ". Check the terragrunt version the scan assumes (--terragrunt-version), or pass"
              + " --allow-every-unit-left-out if this is meant");
    }
    return Optional.of(message);
  }

  /**
   * {@code units} and every unit that depends on them, transitively, never entering {@code skip}.
   */
  private static SortedSet<String> withDependents(
      Set<String> units, UnitGraph graph, Set<String> skip) {
    SortedSet<String> members = new TreeSet<>();
    Deque<String> queue = new ArrayDeque<>();
    for (String unit : units) {
      if (!skip.contains(unit) && members.add(unit)) {
        queue.add(unit);
      }
    }
    while (!queue.isEmpty()) {
      for (String dependent : graph.dependents(queue.poll())) {
        if (!skip.contains(dependent) && members.add(dependent)) {
          queue.add(dependent);
        }
      }
    }
    return members;
  }
}
