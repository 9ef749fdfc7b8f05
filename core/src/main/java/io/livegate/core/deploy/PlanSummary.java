package io.livegate.core.deploy;

import java.util.List;

/**
 * What a plan would do, from {@code show -json}.
 *
 * @param newProviders providers the config requires that the state does not hold yet
 * @param destroyed the full addresses of the resources it destroys (replaced ones included),
 *     sorted: what a vote on a destroy lists
 * @param firstChanges the first {@value #LISTED} changed resources with their actions, sorted, as
 *     {@link io.livegate.core.flow.PlanJson#changes} writes them ({@code terraform_data.app:
 *     update}): what the vote mail lists
 * @param changedResources how many resources the plan changes in all
 */
public record PlanSummary(
    int add,
    int change,
    int destroy,
    List<String> newProviders,
    List<String> destroyed,
    List<String> firstChanges,
    int changedResources) {
  /** How many changed resources a summary keeps (a plan may change thousands). */
  public static final int LISTED = 10;

  public PlanSummary {
    newProviders = List.copyOf(newProviders);
    destroyed = List.copyOf(destroyed);
    firstChanges = List.copyOf(firstChanges.subList(0, Math.min(LISTED, firstChanges.size())));
    changedResources = Math.max(changedResources, firstChanges.size());
  }

  /** A summary that does not list the changed resources. */
  public PlanSummary(
      int add, int change, int destroy, List<String> newProviders, List<String> destroyed) {
    this(add, change, destroy, newProviders, destroyed, List.of(), 0);
  }

  /** A summary that lists neither the destroyed nor the changed resources. */
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
