package io.livegate.core.stack;

import java.util.List;

/**
 * One unit of a deploy stack.
 *
 * @param unit the unit id: its repo-relative directory
 * @param dependsOn the units it depends on that are in the same stack, sorted
 * @param layer its layer, from 0; everything it waits for has a lower layer
 */
public record PlannedExecution(
    String unit, String account, List<String> dependsOn, int layer, List<Reason> reasons) {
  public PlannedExecution {
    dependsOn = List.copyOf(dependsOn);
    reasons = List.copyOf(reasons);
  }
}
