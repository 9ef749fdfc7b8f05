package io.livegate.core.drift;

import io.livegate.core.LivegateException;
import io.livegate.core.stack.DeployStack;
import io.livegate.core.stack.PlannedExecution;
import io.livegate.core.stack.Reason;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * What a drift reconcile deploys: the drifted units of a drift report and nothing else (their
 * dependents are not redeployed unless they drifted too), in the order of the trunk head's graph: a
 * drifted unit that depends on another drifted unit, directly or through units in sync, waits for
 * it.
 */
public final class ReconcileStack {
  private ReconcileStack() {}

  /**
   * @param everyUnit a scan of every unit at the report's head ({@code --all}), for the order
   * @param report the drift run; its errors do not stop the reconcile of what did drift
   */
  public static DeployStack of(DeployStack everyUnit, DriftReport report) {
    if (!everyUnit.head().equals(report.head())) {
      throw new LivegateException(
          "the drift run planned "
              + report.head()
              + " but the units were scanned at "
              + everyUnit.head());
    }
    Set<String> drifted = new TreeSet<>();
    report.drifted().forEach(unit -> drifted.add(unit.unit()));
    Map<String, Integer> layers = new HashMap<>();
    // Per unit of the graph, the drifted units it depends on, directly or through others.
    Map<String, Set<String>> waitsFor = new HashMap<>();
    List<PlannedExecution> executions = new ArrayList<>();
    // The scan lists executions by layer, so what a unit depends on comes before it.
    for (PlannedExecution execution : everyUnit.executions()) {
      Set<String> waits = new TreeSet<>();
      for (String dependency : execution.dependsOn()) {
        if (layers.containsKey(dependency)) {
          waits.add(dependency);
        }
        waits.addAll(waitsFor.getOrDefault(dependency, Set.of()));
      }
      waitsFor.put(execution.unit(), waits);
      if (!drifted.remove(execution.unit())) {
        continue;
      }
      int layer = waits.stream().mapToInt(layers::get).max().orElse(-1) + 1;
      layers.put(execution.unit(), layer);
      executions.add(
          new PlannedExecution(
              execution.unit(),
              execution.account(),
              List.copyOf(waits),
              layer,
              List.of(new Reason(Reason.Kind.PLAN_HAS_CHANGES, null, null))));
    }
    if (!drifted.isEmpty()) {
      throw new LivegateException(
          "drifted units that the scan of " + report.head() + " does not have: " + drifted);
    }
    executions.sort(
        Comparator.comparingInt(PlannedExecution::layer).thenComparing(PlannedExecution::unit));
    return new DeployStack(
        everyUnit.scan(),
        report.head(),
        report.head(),
        everyUnit.accounts(),
        executions,
        List.of(),
        List.of(),
        everyUnit.warnings());
  }
}
