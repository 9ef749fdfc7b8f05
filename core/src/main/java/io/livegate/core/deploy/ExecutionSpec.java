package io.livegate.core.deploy;

import java.util.List;

/**
 * Everything an execution is created with: what to run, who votes, and what it waits for.
 *
 * @param dependsOn unit ids of the same deployment (and the same phase: normal or rollback)
 * @param planCommands argv lists, run in order from the repository root to make the plan file
 * @param applyCommands argv lists that apply exactly the saved plan file
 * @param destroyTargets for a rollback: the full resource addresses it destroys
 * @param destroy whether it destroys a unit that the merge deleted: it plans {@code plan -destroy}
 *     from a checkout of the deployment's base commit, where the unit's config still is
 */
public record ExecutionSpec(
    String unit,
    String account,
    int layer,
    List<String> dependsOn,
    List<List<String>> planCommands,
    List<List<String>> applyCommands,
    List<String> voters,
    int minApprovals,
    int minRejections,
    String planRole,
    String applyRole,
    boolean rollback,
    List<String> destroyTargets,
    boolean destroy) {
  public ExecutionSpec {
    dependsOn = List.copyOf(dependsOn);
    planCommands = planCommands.stream().map(List::copyOf).toList();
    applyCommands = applyCommands.stream().map(List::copyOf).toList();
    voters = List.copyOf(voters);
    destroyTargets = List.copyOf(destroyTargets);
  }
}
