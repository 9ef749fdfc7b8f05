package io.livegate.core.stack;

import java.util.List;

/**
 * What a merge must deploy, in order: the result of a scan and the input of a deployment. Its JSON
 * form is a documented contract (docs/deploy-stack.md); {@link DeployStackJson} writes it.
 *
 * @param base the base commit, or {@code null} for a scan of all units
 * @param head the head commit
 * @param executions sorted by layer, then unit id
 * @param deleted units that are gone at the head, sorted by unit id
 * @param excluded units that would be in the stack but that their configs leave out, sorted by unit
 *     id
 * @param warnings things a scan could not read that did not stop it
 */
public record DeployStack(
    ScanMode scan,
    String base,
    String head,
    List<AccountOrder> accounts,
    List<PlannedExecution> executions,
    List<DeletedUnit> deleted,
    List<ExcludedUnit> excluded,
    List<String> warnings) {
  public static final int SCHEMA_VERSION = 1;

  public DeployStack {
    accounts = List.copyOf(accounts);
    executions = List.copyOf(executions);
    deleted = List.copyOf(deleted);
    excluded = List.copyOf(excluded);
    warnings = List.copyOf(warnings);
  }

  /** The number of layers. */
  public int layerCount() {
    return executions.stream().mapToInt(PlannedExecution::layer).max().orElse(-1) + 1;
  }
}
