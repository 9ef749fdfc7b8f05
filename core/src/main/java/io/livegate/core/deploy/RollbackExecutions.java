package io.livegate.core.deploy;

import io.livegate.core.runner.RunnerArgv;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Plans the rollback of a failed deployment: for every execution whose apply created resources of
 * newly added providers, one execution that destroys exactly those resources by full address
 * (module path included). Rollbacks run in reverse: a unit's rollback waits for the rollbacks of
 * every unit that depends on it, directly or through units without a rollback; account order is
 * reversed by {@link ReleaseRule}. They keep the original's voters, thresholds and roles. The
 * destroy of a unit that the merge deleted is never rolled back: nothing re-creates what a vote
 * chose to destroy.
 */
public final class RollbackExecutions {
  private RollbackExecutions() {}

  public static List<ExecutionSpec> rollbacks(List<Execution> executions, RunnerArgv runner) {
    List<Execution> normal =
        executions.stream().filter(execution -> !execution.rollback()).toList();
    // A voted destroy of a deleted unit is never undone: its resources are gone on purpose.
    List<Execution> undo =
        normal.stream()
            .filter(execution -> !execution.destroy() && !execution.newResources().isEmpty())
            .sorted(Comparator.comparing(Execution::unit))
            .toList();
    Map<Long, List<Execution>> dependents = new HashMap<>();
    for (Execution execution : normal) {
      for (long dependency : execution.dependsOn()) {
        dependents.computeIfAbsent(dependency, id -> new ArrayList<>()).add(execution);
      }
    }
    Set<Long> undoIds = new HashSet<>();
    undo.forEach(execution -> undoIds.add(execution.id()));
    int maxLayer = normal.stream().mapToInt(execution -> execution.spec().layer()).max().orElse(0);
    List<ExecutionSpec> rollbacks = new ArrayList<>();
    for (Execution execution : undo) {
      TreeSet<String> waitFor = new TreeSet<>();
      Deque<Execution> queue = new ArrayDeque<>(dependents.getOrDefault(execution.id(), List.of()));
      Set<Long> seen = new HashSet<>();
      while (!queue.isEmpty()) {
        Execution dependent = queue.poll();
        if (!seen.add(dependent.id())) {
          continue;
        }
        if (undoIds.contains(dependent.id())) {
          waitFor.add(dependent.unit());
        }
        queue.addAll(dependents.getOrDefault(dependent.id(), List.of()));
      }
      ExecutionSpec original = execution.spec();
      rollbacks.add(
          new ExecutionSpec(
              original.unit(),
              original.account(),
              maxLayer - original.layer(),
              List.copyOf(waitFor),
              runner.planCommands(original.unit(), original.planRole(), execution.newResources()),
              runner.applyCommands(original.unit(), original.applyRole()),
              original.voters(),
              original.minApprovals(),
              original.minRejections(),
              original.planRole(),
              original.applyRole(),
              true,
              execution.newResources(),
              false));
    }
    return rollbacks;
  }
}
