package io.livegate.core.scan;

import io.livegate.core.RepoPaths;
import io.livegate.core.account.Account;
import io.livegate.core.account.Accounts;
import io.livegate.core.graph.Layering;
import io.livegate.core.graph.UnitGraph;
import io.livegate.core.repo.FileChange;
import io.livegate.core.stack.AccountOrder;
import io.livegate.core.stack.DeletedUnit;
import io.livegate.core.stack.DeployStack;
import io.livegate.core.stack.PlannedExecution;
import io.livegate.core.stack.Reason;
import io.livegate.core.stack.ScanMode;
import io.livegate.core.terragrunt.DependencyDeclaration;
import io.livegate.core.terragrunt.TerragruntConfigReader;
import io.livegate.core.terragrunt.UnitDiscovery;
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
import java.util.function.Predicate;
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
   * Maps changed files to units. A file changes the innermost unit that holds it, and every unit
   * that reads it (or a module directory that holds it). A file whose innermost unit existed only
   * at the base commit marks that unit as deleted.
   */
  static Changes fromFiles(
      List<FileChange> files,
      Pattern filePattern,
      UnitGraph graph,
      Accounts accounts,
      Predicate<String> fileAtBase) {
    SortedMap<String, Set<Reason>> changed = new TreeMap<>();
    SortedMap<String, Set<Reason>> deleted = new TreeMap<>();
    for (FileChange change : files) {
      for (String path : change.paths()) {
        if (!filePattern.matcher(path).matches()) {
          continue;
        }
        owningUnit(path, graph, accounts, fileAtBase)
            .ifPresent(
                owner -> {
                  if (graph.isUnit(owner)) {
                    changed
                        .computeIfAbsent(owner, unit -> new LinkedHashSet<>())
                        .add(Reason.changedFile(path));
                  } else {
                    deleted
                        .computeIfAbsent(owner, unit -> new LinkedHashSet<>())
                        .add(new Reason(Reason.Kind.DELETED_FILE, path, null));
                  }
                });
        graph
            .readersOf(path)
            .forEach(
                (reader, via) ->
                    changed
                        .computeIfAbsent(reader, unit -> new LinkedHashSet<>())
                        .add(Reason.readsChangedFile(path, via.label())));
      }
    }
    SortedMap<String, DeletedUnit> deletedUnits = new TreeMap<>();
    deleted.forEach(
        (unit, reasons) ->
            deletedUnits.put(
                unit,
                new DeletedUnit(
                    unit, accounts.accountOf(unit).orElseThrow().name(), List.copyOf(reasons))));
    return new Changes(changed, deletedUnits);
  }

  /**
   * The innermost directory above {@code path} that is a unit at the head, or that was one at the
   * base and is gone now.
   */
  private static Optional<String> owningUnit(
      String path, UnitGraph graph, Accounts accounts, Predicate<String> fileAtBase) {
    for (String dir = RepoPaths.parent(path);
        dir != null && !dir.isEmpty();
        dir = RepoPaths.parent(dir)) {
      if (graph.isUnit(dir)) {
        return Optional.of(dir);
      }
      if (!UnitDiscovery.isHidden(dir)
          && accounts.accountOf(dir).isPresent()
          && fileAtBase.test(RepoPaths.join(dir, TerragruntConfigReader.CONFIG_FILE))) {
        return Optional.of(dir);
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
      Accounts accounts,
      SortedMap<String, Set<Reason>> changed,
      SortedMap<String, DeletedUnit> deleted) {
    SortedSet<String> members = new TreeSet<>(changed.keySet());
    Deque<String> queue = new ArrayDeque<>(changed.keySet());
    while (!queue.isEmpty()) {
      for (String dependent : graph.dependents(queue.poll())) {
        if (members.add(dependent)) {
          queue.add(dependent);
        }
      }
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
        List.copyOf(warnings));
  }
}
