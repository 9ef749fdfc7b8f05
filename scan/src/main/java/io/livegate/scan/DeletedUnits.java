package io.livegate.scan;

import io.livegate.core.ProgressListener;
import io.livegate.core.account.Accounts;
import io.livegate.core.stack.DeletedUnit;
import io.livegate.core.stack.DeployStack;
import io.livegate.core.stack.PlannedExecution;
import io.livegate.scan.graph.UnitGraph;
import io.livegate.scan.repo.GitRepo;
import io.livegate.scan.repo.RemoteSources;
import io.livegate.scan.terragrunt.DependencyDeclaration;
import io.livegate.scan.terragrunt.UnitConfig;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * Orders the destroys of a stack's deleted units from the configs they had at the base: which
 * deleted units each depended on (destroyed after it), which units of the stack depended on it
 * (applied after its destroy), and whether its account destroys deleted units at all. A unit at the
 * head that still depends on a deleted one never gets here: reading the head's graph fails on it,
 * naming both.
 */
final class DeletedUnits {
  private DeletedUnits() {}

  /**
   * {@code stack} with its deleted units ordered from the graph at {@code base} in {@code repo}.
   *
   * @param unchanged the configs that the base shares with the head, as {@link
   *     ChangeSet#unchangedConfigs} gives them, so that only the others are read again
   */
  static DeployStack ordered(
      DeployStack stack,
      ScanCommand command,
      GitRepo repo,
      String base,
      ProgressListener progress,
      RemoteSources remoteSources,
      Function<String, UnitConfig> unchanged) {
    return ordered(
        stack,
        command.accounts(),
        () -> {
          progress.progress("reading the deleted units' configs at " + base.substring(0, 12));
          return UnitGraph.read(
              repo.tree(base),
              command.accounts(),
              command.environment(),
              command.terragruntVersion(),
              command.parallelism(),
              progress,
              command.allowPartial(),
              remoteSources,
              unchanged);
        });
  }

  /**
   * @param baseGraph the graph at the base, read only when a deleted unit's account destroys it
   */
  static DeployStack ordered(DeployStack stack, Accounts accounts, Supplier<UnitGraph> baseGraph) {
    if (stack.deleted().stream().noneMatch(unit -> accounts.get(unit.account()).destroyDeleted())) {
      return stack;
    }
    UnitGraph base = baseGraph.get();
    Set<String> deleted = new TreeSet<>();
    stack.deleted().forEach(unit -> deleted.add(unit.unit()));
    Set<String> inStack = new TreeSet<>();
    stack.executions().stream().map(PlannedExecution::unit).forEach(inStack::add);
    List<DeletedUnit> ordered = new ArrayList<>();
    for (DeletedUnit unit : stack.deleted()) {
      SortedSet<String> dependsOn = new TreeSet<>();
      for (DependencyDeclaration dependency : base.config(unit.unit()).dependencies()) {
        if (deleted.contains(dependency.target())) {
          dependsOn.add(dependency.target());
        }
      }
      SortedSet<String> formerDependents = new TreeSet<>(base.dependents(unit.unit()));
      formerDependents.retainAll(inStack);
      ordered.add(
          new DeletedUnit(
              unit.unit(),
              unit.account(),
              unit.reasons(),
              List.copyOf(dependsOn),
              List.copyOf(formerDependents),
              accounts.get(unit.account()).destroyDeleted()));
    }
    return new DeployStack(
        stack.scan(),
        stack.base(),
        stack.head(),
        stack.accounts(),
        stack.executions(),
        ordered,
        List.of(),
        stack.warnings());
  }
}
