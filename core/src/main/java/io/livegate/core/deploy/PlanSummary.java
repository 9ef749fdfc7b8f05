package io.livegate.core.deploy;

import java.util.List;

/**
 * What a plan would do, from {@code show -json}.
 *
 * @param newProviders providers the config requires that the state does not hold yet
 */
public record PlanSummary(int add, int change, int destroy, List<String> newProviders) {
  public PlanSummary {
    newProviders = List.copyOf(newProviders);
  }

  /** "+add ~change -destroy", e.g. "+2 ~0 -1". */
  public String counts() {
    return "+" + add + " ~" + change + " -" + destroy;
  }

  public boolean hasChanges() {
    return add + change + destroy > 0;
  }
}
