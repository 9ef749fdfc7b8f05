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

  public boolean hasChanges() {
    return add + change + destroy > 0;
  }
}
