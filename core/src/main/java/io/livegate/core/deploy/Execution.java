package io.livegate.core.deploy;

import java.time.Instant;
import java.util.List;

/**
 * One unit inside one deployment, as stored.
 *
 * @param name the deterministic Step Functions execution name (see {@link ExecutionNames})
 * @param dependsOn the ids of the executions it waits for
 * @param planArtifact where the saved plan file is; {@code null} before planning
 * @param planSha256 the plan file's hash, checked before apply
 * @param newResources full addresses of resources of newly added providers that apply created
 * @param decision "approved" or "rejected" once the vote is decided, else {@code null}
 */
public record Execution(
    long id,
    long deploymentId,
    String name,
    ExecutionSpec spec,
    ExecutionStatus status,
    List<Long> dependsOn,
    String planArtifact,
    String planSha256,
    PlanSummary planSummary,
    List<String> newResources,
    String decision,
    Instant createdAt,
    Instant startedAt,
    Instant finishedAt) {
  public Execution {
    dependsOn = List.copyOf(dependsOn);
    newResources = List.copyOf(newResources);
  }

  public String unit() {
    return spec.unit();
  }

  public String account() {
    return spec.account();
  }

  public boolean rollback() {
    return spec.rollback();
  }

  /** Whether it destroys a unit that the merge deleted. */
  public boolean destroy() {
    return spec.destroy();
  }
}
