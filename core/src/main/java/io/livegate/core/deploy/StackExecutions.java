package io.livegate.core.deploy;

import io.livegate.core.LivegateException;
import io.livegate.core.account.Account;
import io.livegate.core.account.Accounts;
import io.livegate.core.runner.RunnerArgv;
import io.livegate.core.stack.DeletedUnit;
import io.livegate.core.stack.DeployStack;
import io.livegate.core.stack.PlannedExecution;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Turns a scan's deploy stack into the executions a deployment stores: first the destroys of the
 * deleted units that their accounts destroy, in reverse dependency order (a deleted dependent
 * before the deleted unit it depended on), then the stack's executions, each of which also waits
 * for the destroys of the deleted units it depended on at the base.
 */
public final class StackExecutions {
  private StackExecutions() {}

  public static List<ExecutionSpec> executions(
      DeployStack stack, Accounts accounts, RunnerArgv runner) {
    SortedMap<String, DeletedUnit> destroyed = new TreeMap<>();
    stack.deleted().stream().filter(DeletedUnit::destroy).forEach(u -> destroyed.put(u.unit(), u));
    Map<String, Integer> destroyLayers = new HashMap<>();
    destroyed.keySet().forEach(unit -> destroyLayer(unit, destroyed, destroyLayers));
    int shift = destroyLayers.values().stream().mapToInt(layer -> layer + 1).max().orElse(0);
    Map<String, TreeSet<String>> waitsForDestroys = new HashMap<>();
    List<ExecutionSpec> specs = new ArrayList<>();
    for (DeletedUnit deleted : destroyed.values()) {
      Account account = accounts.get(deleted.account());
      deleted
          .formerDependents()
          .forEach(
              dependent ->
                  waitsForDestroys
                      .computeIfAbsent(dependent, unit -> new TreeSet<>())
                      .add(deleted.unit()));
      specs.add(
          new ExecutionSpec(
              deleted.unit(),
              account.name(),
              destroyLayers.get(deleted.unit()),
              deletedDependents(deleted.unit(), destroyed),
              runner.destroyPlanCommands(deleted.unit(), account.planRole()),
              runner.applyCommands(deleted.unit(), account.applyRole()),
              account.voters(),
              account.minApprovals(),
              account.minRejections(),
              account.planRole(),
              account.applyRole(),
              false,
              List.of(),
              true));
    }
    for (PlannedExecution planned : stack.executions()) {
      Account account = accounts.get(planned.account());
      TreeSet<String> dependsOn = new TreeSet<>(planned.dependsOn());
      dependsOn.addAll(waitsForDestroys.getOrDefault(planned.unit(), new TreeSet<>()));
      specs.add(
          new ExecutionSpec(
              planned.unit(),
              account.name(),
              planned.layer() + shift,
              List.copyOf(dependsOn),
              runner.planCommands(planned.unit(), account.planRole(), List.of()),
              runner.applyCommands(planned.unit(), account.applyRole()),
              account.voters(),
              account.minApprovals(),
              account.minRejections(),
              account.planRole(),
              account.applyRole(),
              false,
              List.of(),
              false));
    }
    return specs;
  }

  /** The destroyed units that depended on {@code unit} at the base: destroyed before it. */
  private static List<String> deletedDependents(
      String unit, SortedMap<String, DeletedUnit> destroyed) {
    return destroyed.values().stream()
        .filter(other -> other.dependsOn().contains(unit))
        .map(DeletedUnit::unit)
        .toList();
  }

  /** 0 when no destroyed unit depended on it, else one more than theirs. */
  private static int destroyLayer(
      String unit, SortedMap<String, DeletedUnit> destroyed, Map<String, Integer> layers) {
    Integer known = layers.get(unit);
    if (known != null && known < 0) {
      throw new LivegateException(
          "the deleted units depended on each other in a cycle at the base, through " + unit);
    }
    if (known != null) {
      return known;
    }
    layers.put(unit, -1);
    int layer = 0;
    for (String dependent : deletedDependents(unit, destroyed)) {
      layer = Math.max(layer, destroyLayer(dependent, destroyed, layers) + 1);
    }
    layers.put(unit, layer);
    return layer;
  }
}
