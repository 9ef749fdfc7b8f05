package io.livegate.core.deploy;

import java.util.List;

/**
 * What a plan would do, from {@code show -json}.
 *
 * @param newProviders providers the config requires that the state does not hold yet
 * @param destroyed the full addresses of the resources it destroys (replaced ones included),
 *     sorted: what a vote on a destroy lists
 */
public record PlanSummary(
    int add, int change, int destroy, List<String> newProviders, List<String> destroyed) {
  public PlanSummary {
    newProviders = List.copyOf(newProviders);
    destroyed = List.copyOf(destroyed);
  }

  /** A summary that does not list the destroyed resources. */
  public PlanSummary(int add, int change, int destroy, List<String> newProviders) {
    this(add, change, destroy, newProviders, List.of());
  }

  /** "+add ~change -destroy", e.g. "+2 ~0 -1". */
  public String counts() {
    return "+" + add + " ~" + change + " -" + destroy;
  }

  /** The counts as the vote mail and page say them, e.g. "2 to add, 0 to change, 1 to destroy". */
  public String inWords() {
    return add + " to add, " + change + " to change, " + destroy + " to destroy";
  }

  public boolean hasChanges() {
    return add + change + destroy > 0;
  }
}
