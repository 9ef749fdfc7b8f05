package io.livegate.core.testing;

import io.livegate.core.deploy.Execution;
import io.livegate.core.deploy.ExecutionNames;
import io.livegate.core.deploy.ExecutionSpec;
import io.livegate.core.deploy.ExecutionStatus;
import io.livegate.core.deploy.PlanSummary;
import java.time.Instant;
import java.util.List;

/** Executions as the metadb would return them, for tests of what is rendered from them. */
public final class Executions {
  public static final Instant CREATED = Instant.parse("2026-01-02T03:04:05Z");

  private Executions() {}

  /** Execution {@code id} of deployment 1, planned with {@code summary} (null: not planned). */
  public static Execution of(
      long id,
      String unit,
      String account,
      ExecutionStatus status,
      List<Long> dependsOn,
      PlanSummary summary) {
    return of(id, unit, account, status, dependsOn, summary, false);
  }

  /** {@link #of}, as the destroy of a unit that the merge deleted when {@code destroy}. */
  public static Execution of(
      long id,
      String unit,
      String account,
      ExecutionStatus status,
      List<Long> dependsOn,
      PlanSummary summary,
      boolean destroy) {
    ExecutionSpec spec =
        new ExecutionSpec(
            unit,
            account,
            0,
            List.of(),
            List.of(),
            List.of(),
            List.of("platform-lead@example.com"),
            1,
            1,
            null,
            null,
            false,
            List.of(),
            destroy);
    return new Execution(
        id,
        1,
        ExecutionNames.of(1, unit, false),
        spec,
        status,
        dependsOn,
        summary == null ? null : "plans/" + id + ".tfplan",
        summary == null ? null : "0".repeat(64),
        summary,
        List.of(),
        null,
        CREATED,
        status == ExecutionStatus.WAITING ? null : CREATED.plusSeconds(1),
        status.isTerminal() ? CREATED.plusSeconds(42) : null);
  }
}
