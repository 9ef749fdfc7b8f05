package io.livegate.sql;

import io.livegate.core.LivegateException;
import io.livegate.core.deploy.Execution;
import io.livegate.core.deploy.ExecutionStatus;
import io.livegate.core.deploy.ExecutionStore;
import io.livegate.core.deploy.PlanSummary;
import io.livegate.core.flow.FlowState;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.jdbi.v3.core.Handle;

/** Executions on PostgreSQL, with the release rule as one statement. */
public final class JdbiExecutionStore implements ExecutionStore {
  /**
   * {@link io.livegate.core.deploy.ReleaseRule} in SQL. {@code pending_dependencies} stands for
   * "every dependency has succeeded". An account is blocked when an execution of an account it
   * waits for is unfinished or failed; for rollbacks the account order is reversed and only
   * rollbacks count. Claimed rows are locked with SKIP LOCKED and re-checked as still waiting, so
   * racing callers never claim one execution twice.
   */
  private static final String CLAIM_READY =
      """
      WITH blocked AS (
          SELECT ad.account FROM account_dependencies ad
           WHERE ad.deployment_id = :deployment
             AND EXISTS (SELECT 1 FROM executions o
                          WHERE o.deployment_id = :deployment AND NOT o.is_rollback
                            AND o.account = ad.depends_on AND o.status IN ('waiting', 'running', 'failed'))
      ), blocked_rollback AS (
          SELECT ad.depends_on AS account FROM account_dependencies ad
           WHERE ad.deployment_id = :deployment
             AND EXISTS (SELECT 1 FROM executions o
                          WHERE o.deployment_id = :deployment AND o.is_rollback
                            AND o.account = ad.account AND o.status IN ('waiting', 'running', 'failed'))
      ), ready AS (
          SELECT e.id FROM executions e
           WHERE e.deployment_id = :deployment AND e.status = 'waiting' AND e.pending_dependencies = 0
             AND NOT (NOT e.is_rollback AND e.account IN (SELECT account FROM blocked))
             AND NOT (e.is_rollback AND e.account IN (SELECT account FROM blocked_rollback))
           ORDER BY e.unit COLLATE "C"
             FOR UPDATE SKIP LOCKED
      )
      UPDATE executions e SET status = 'running', started_at = :now
        FROM ready WHERE e.id = ready.id AND e.status = 'waiting'
      RETURNING e.id
      """;

  private final LazyJdbi jdbi;

  JdbiExecutionStore(LazyJdbi jdbi) {
    this.jdbi = jdbi;
  }

  @Override
  public List<Execution> claimReady(long deploymentId, Instant now) {
    return jdbi.inTransaction(
        handle -> {
          long[] claimed =
              handle
                  .createQuery(CLAIM_READY)
                  .bind("deployment", deploymentId)
                  .bind("now", Timestamp.from(now))
                  .mapTo(Long.class)
                  .list()
                  .stream()
                  .mapToLong(Long::longValue)
                  .toArray();
          if (claimed.length == 0) {
            return List.of();
          }
          return ExecutionRows.select(
              handle, "e.id = ANY(:ids)", "e.unit COLLATE \"C\"", Map.of("ids", claimed));
        });
  }

  @Override
  public boolean transition(
      long executionId, ExecutionStatus from, ExecutionStatus to, Instant now) {
    return jdbi.inTransaction(
        handle -> {
          int moved =
              handle
                  .createUpdate(
                      "UPDATE executions SET status = :to, finished_at = CASE WHEN :terminal"
                          + " THEN :now ELSE finished_at END, started_at = CASE WHEN :to = 'running' THEN :now ELSE started_at END"
                          + " WHERE id = :id AND status = :from")
                  .bind("id", executionId)
                  .bind("from", from.id())
                  .bind("to", to.id())
                  .bind("terminal", to.isTerminal())
                  .bind("now", Timestamp.from(now))
                  .execute();
          if (moved == 1 && to == ExecutionStatus.SUCCEEDED) {
            // Lock the dependents in id order first: two successes that share dependents then
            // take their row locks in the same order and cannot deadlock.
            long[] dependents =
                handle
                    .createQuery(
                        "SELECT id FROM executions WHERE id IN (SELECT execution_id FROM"
                            + " execution_dependencies WHERE depends_on = :id) ORDER BY id FOR UPDATE")
                    .bind("id", executionId)
                    .mapTo(Long.class)
                    .list()
                    .stream()
                    .mapToLong(Long::longValue)
                    .toArray();
            if (dependents.length > 0) {
              handle
                  .createUpdate(
                      "UPDATE executions SET pending_dependencies = pending_dependencies - 1"
                          + " WHERE id = ANY(:ids)")
                  .bind("ids", dependents)
                  .execute();
            }
          }
          return moved == 1;
        });
  }

  @Override
  public boolean recordPlan(long executionId, String artifact, String sha256, PlanSummary summary) {
    return jdbi.withHandle(
            handle ->
                handle
                    .createUpdate(
                        "UPDATE executions SET plan_artifact = :artifact,"
                            + " plan_sha256 = :sha256, plan_summary = CAST(:summary AS jsonb), new_providers = :providers"
                            + " WHERE id = :id AND status = 'running'")
                    .bind("id", executionId)
                    .bind("artifact", artifact)
                    .bind("sha256", sha256)
                    .bind("summary", Json.summary(summary))
                    .bind("providers", summary.newProviders().toArray(String[]::new))
                    .execute())
        == 1;
  }

  @Override
  public boolean recordNewResources(long executionId, List<String> addresses) {
    return jdbi.withHandle(
            handle ->
                handle
                    .createUpdate(
                        "UPDATE executions SET new_resources = :addresses WHERE id = :id AND status = 'running'")
                    .bind("id", executionId)
                    .bind("addresses", addresses.toArray(String[]::new))
                    .execute())
        == 1;
  }

  @Override
  public boolean recordApprovalToken(long executionId, String taskToken) {
    return jdbi.withHandle(
            handle ->
                handle
                    .createUpdate(
                        "UPDATE executions SET approval_token = :token WHERE id = :id AND status = 'running'")
                    .bind("id", executionId)
                    .bind("token", taskToken)
                    .execute())
        == 1;
  }

  @Override
  public Optional<String> approvalToken(long executionId) {
    return jdbi.withHandle(
        handle ->
            handle
                .createQuery("SELECT approval_token FROM executions WHERE id = :id")
                .bind("id", executionId)
                .mapTo(String.class)
                .findOne());
  }

  @Override
  public Optional<List<Execution>> endAndAbort(
      long executionId,
      ExecutionStatus outcome,
      Collection<Long> dependents,
      Set<ExecutionStatus> from,
      Instant now) {
    if (outcome != ExecutionStatus.FAILED && outcome != ExecutionStatus.REJECTED) {
      throw new LivegateException("endAndAbort ends failed or rejected, not " + outcome.id());
    }
    return jdbi.inTransaction(
        handle -> {
          int ended =
              handle
                  .createUpdate(
                      "UPDATE executions SET status = :to, finished_at = :now"
                          + " WHERE id = :id AND status = 'running'")
                  .bind("id", executionId)
                  .bind("to", outcome.id())
                  .bind("now", Timestamp.from(now))
                  .execute();
          if (ended == 0) {
            return Optional.empty();
          }
          return Optional.of(abort(handle, dependents, from, now));
        });
  }

  @Override
  public List<Execution> abort(
      Collection<Long> executionIds, Set<ExecutionStatus> from, Instant now) {
    if (executionIds.isEmpty()) {
      return List.of();
    }
    return jdbi.inTransaction(handle -> abort(handle, executionIds, from, now));
  }

  private static List<Execution> abort(
      Handle handle, Collection<Long> executionIds, Set<ExecutionStatus> from, Instant now) {
    if (executionIds.isEmpty()) {
      return List.of();
    }
    List<Execution> before =
        ExecutionRows.selectForUpdate(
            handle,
            // The row lock orders this against entering Apply: an execution that entered it first
            // is left to finish, one that enters it later finds itself aborted and applies nothing.
            "e.id = ANY(:ids) AND e.status = ANY(:from) AND e.flow_state IS DISTINCT FROM :applying",
            "e.id",
            Map.of(
                "ids",
                executionIds.stream().mapToLong(Long::longValue).toArray(),
                "from",
                from.stream().map(ExecutionStatus::id).toArray(String[]::new),
                "applying",
                FlowState.APPLY.stateName()));
    if (before.isEmpty()) {
      return List.of();
    }
    handle
        .createUpdate(
            "UPDATE executions SET status = 'aborted', finished_at = :now WHERE id = ANY(:ids)")
        .bind("ids", before.stream().mapToLong(Execution::id).toArray())
        .bind("now", Timestamp.from(now))
        .execute();
    List<Execution> aborted = new ArrayList<>(before);
    aborted.sort(Comparator.comparing(Execution::unit));
    return aborted;
  }

  @Override
  public boolean anyUnfinished(long deploymentId) {
    return jdbi.withHandle(
        handle ->
            handle
                .createQuery(
                    "SELECT EXISTS (SELECT 1 FROM executions WHERE deployment_id = :deployment"
                        + " AND status IN ('waiting', 'running'))")
                .bind("deployment", deploymentId)
                .mapTo(Boolean.class)
                .one());
  }

  @Override
  public boolean enterFlowState(long executionId, String state, String detail, Instant at) {
    return jdbi.inTransaction(
        handle -> {
          int moved =
              handle
                  .createUpdate(
                      "UPDATE executions SET flow_state = :state WHERE id = :id AND status = 'running'")
                  .bind("id", executionId)
                  .bind("state", state)
                  .execute();
          if (moved == 1) {
            handle
                .createUpdate(
                    "INSERT INTO flow_events (execution_id, state, detail, at) VALUES (:id, :state, :detail, :at)")
                .bind("id", executionId)
                .bind("state", state)
                .bind("detail", detail)
                .bind("at", Timestamp.from(at))
                .execute();
          }
          return moved == 1;
        });
  }

  @Override
  public Optional<String> flowState(long executionId) {
    return jdbi.withHandle(
        handle ->
            handle
                .createQuery("SELECT flow_state FROM executions WHERE id = :id")
                .bind("id", executionId)
                .mapTo(String.class)
                .findOne());
  }

  @Override
  public List<String> flowEvents(long executionId) {
    return jdbi.withHandle(
        handle ->
            handle
                .createQuery(
                    "SELECT state, detail FROM flow_events"
                        + " WHERE execution_id = :id ORDER BY id")
                .bind("id", executionId)
                .map(
                    (rs, ctx) ->
                        rs.getString(2) == null
                            ? rs.getString(1)
                            : rs.getString(1) + ": " + rs.getString(2))
                .list());
  }

  @Override
  public Optional<Execution> find(long executionId) {
    return jdbi.withHandle(
        handle ->
            ExecutionRows.select(handle, "e.id = :id", "e.id", Map.of("id", executionId)).stream()
                .findFirst());
  }

  @Override
  public Optional<Execution> findByName(String name) {
    return jdbi.withHandle(
        handle ->
            ExecutionRows.select(handle, "e.name = :name", "e.id", Map.of("name", name)).stream()
                .findFirst());
  }

  @Override
  public List<Execution> list(long deploymentId) {
    return jdbi.withHandle(
        handle ->
            ExecutionRows.select(
                handle,
                "e.deployment_id = :deployment",
                "e.is_rollback, e.layer, e.unit COLLATE \"C\"",
                Map.of("deployment", deploymentId)));
  }
}
