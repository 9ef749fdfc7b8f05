package io.livegate.sql;

import io.livegate.core.deploy.Execution;
import io.livegate.core.deploy.ExecutionSpec;
import io.livegate.core.deploy.ExecutionStatus;
import java.sql.Array;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.jdbi.v3.core.Handle;

/** Reads execution rows, with their dependency edges, into {@link Execution}s. */
final class ExecutionRows {
  static final String COLUMNS =
      "e.id, e.deployment_id, e.name, e.unit, e.account, e.layer, e.is_rollback, e.is_destroy, e.status,"
          + " e.plan_commands::text AS plan_commands, e.apply_commands::text AS apply_commands, e.voters,"
          + " e.min_approvals, e.min_rejections, e.plan_role, e.apply_role, e.destroy_targets, e.plan_artifact,"
          + " e.plan_sha256, e.plan_summary::text AS plan_summary, e.new_resources, e.decision, e.created_at,"
          + " e.started_at, e.finished_at";

  private ExecutionRows() {}

  /** The rows {@code where} selects from {@code executions e}, ordered as {@code orderBy} says. */
  static List<Execution> select(
      Handle handle, String where, String orderBy, Map<String, Object> bindings) {
    return select(handle, where, orderBy, bindings, false);
  }

  /**
   * Like {@link #select(Handle, String, String, Map)}, locking the rows until the transaction ends.
   */
  static List<Execution> selectForUpdate(
      Handle handle, String where, String orderBy, Map<String, Object> bindings) {
    return select(handle, where, orderBy, bindings, true);
  }

  private static List<Execution> select(
      Handle handle, String where, String orderBy, Map<String, Object> bindings, boolean lock) {
    List<Row> rows =
        handle
            .createQuery(
                "SELECT "
                    + COLUMNS
                    + " FROM executions e WHERE "
                    + where
                    + " ORDER BY "
                    + orderBy
                    + (lock ? " FOR UPDATE" : ""))
            .bindMap(bindings)
            .map((rs, ctx) -> row(rs))
            .list();
    return withDependencies(handle, rows);
  }

  private record Edge(long execution, long dependsOn, String unit) {}

  /** A row read before its dependency ids are known. */
  record Row(
      long id,
      long deploymentId,
      String name,
      ExecutionSpec spec,
      ExecutionStatus status,
      String planArtifact,
      String planSha256,
      String planSummary,
      List<String> newResources,
      String decision,
      Instant createdAt,
      Instant startedAt,
      Instant finishedAt) {}

  static Row row(ResultSet rs) throws SQLException {
    ExecutionSpec spec =
        new ExecutionSpec(
            rs.getString("unit"),
            rs.getString("account"),
            rs.getInt("layer"),
            List.of(),
            Json.commands(rs.getString("plan_commands")),
            Json.commands(rs.getString("apply_commands")),
            strings(rs.getArray("voters")),
            rs.getInt("min_approvals"),
            rs.getInt("min_rejections"),
            rs.getString("plan_role"),
            rs.getString("apply_role"),
            rs.getBoolean("is_rollback"),
            strings(rs.getArray("destroy_targets")),
            rs.getBoolean("is_destroy"));
    return new Row(
        rs.getLong("id"),
        rs.getLong("deployment_id"),
        rs.getString("name"),
        spec,
        ExecutionStatus.fromId(rs.getString("status")),
        rs.getString("plan_artifact"),
        rs.getString("plan_sha256"),
        rs.getString("plan_summary"),
        strings(rs.getArray("new_resources")),
        rs.getString("decision"),
        instant(rs.getTimestamp("created_at")),
        instant(rs.getTimestamp("started_at")),
        instant(rs.getTimestamp("finished_at")));
  }

  /** Adds dependency ids and unit ids to rows read without them. */
  static List<Execution> withDependencies(Handle handle, List<Row> rows) {
    if (rows.isEmpty()) {
      return List.of();
    }
    long[] ids = rows.stream().mapToLong(Row::id).toArray();
    Map<Long, List<Long>> dependsOn = new HashMap<>();
    Map<Long, List<String>> dependsOnUnits = new HashMap<>();
    List<Edge> edges =
        handle
            .createQuery(
                "SELECT d.execution_id, d.depends_on, t.unit FROM execution_dependencies d"
                    + " JOIN executions t ON t.id = d.depends_on WHERE d.execution_id = ANY(:ids) ORDER BY t.unit COLLATE \"C\"")
            .bind("ids", ids)
            .map((rs, ctx) -> new Edge(rs.getLong(1), rs.getLong(2), rs.getString(3)))
            .list();
    for (Edge edge : edges) {
      dependsOn.computeIfAbsent(edge.execution(), id -> new ArrayList<>()).add(edge.dependsOn());
      dependsOnUnits.computeIfAbsent(edge.execution(), id -> new ArrayList<>()).add(edge.unit());
    }
    List<Execution> executions = new ArrayList<>(rows.size());
    for (Row row : rows) {
      ExecutionSpec spec = row.spec();
      ExecutionSpec withUnits =
          new ExecutionSpec(
              spec.unit(),
              spec.account(),
              spec.layer(),
              dependsOnUnits.getOrDefault(row.id(), List.of()),
              spec.planCommands(),
              spec.applyCommands(),
              spec.voters(),
              spec.minApprovals(),
              spec.minRejections(),
              spec.planRole(),
              spec.applyRole(),
              spec.rollback(),
              spec.destroyTargets(),
              spec.destroy());
      executions.add(
          new Execution(
              row.id(),
              row.deploymentId(),
              row.name(),
              withUnits,
              row.status(),
              dependsOn.getOrDefault(row.id(), List.of()),
              row.planArtifact(),
              row.planSha256(),
              Json.summary(row.planSummary()),
              row.newResources(),
              row.decision(),
              row.createdAt(),
              row.startedAt(),
              row.finishedAt()));
    }
    return executions;
  }

  static List<String> strings(Array array) throws SQLException {
    return array == null ? List.of() : List.of((String[]) array.getArray());
  }

  static Instant instant(Timestamp timestamp) {
    return timestamp == null ? null : timestamp.toInstant();
  }
}
