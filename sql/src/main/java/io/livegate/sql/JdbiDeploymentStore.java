package io.livegate.sql;

import io.livegate.core.LivegateException;
import io.livegate.core.deploy.Deployment;
import io.livegate.core.deploy.DeploymentStatus;
import io.livegate.core.deploy.DeploymentStore;
import io.livegate.core.deploy.ExecutionNames;
import io.livegate.core.deploy.ExecutionSpec;
import io.livegate.core.deploy.MergedPullRequest;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.statement.PreparedBatch;

/** Deployments and their queue on PostgreSQL. */
public final class JdbiDeploymentStore implements DeploymentStore {
  private static final String COLUMNS =
      "id, repository, pr_number, base_ref, head_ref, base_commit, merge_commit, head_commit,"
          + " commits, drift_run,"
          + " status, queue_position, stack_stored, created_at, started_at, finished_at, range_base,"
          + " covered_by, pr_title, pr_author";

  private final LazyJdbi jdbi;

  JdbiDeploymentStore(LazyJdbi jdbi) {
    this.jdbi = jdbi;
  }

  @Override
  public Created enqueue(MergedPullRequest pr, Instant now) {
    return jdbi.inTransaction(
        handle -> {
          lockQueue(handle, pr.repository());
          return insertOrFind(handle, pr, false, now);
        });
  }

  @Override
  public Created create(
      MergedPullRequest pr,
      String rangeBase,
      List<ExecutionSpec> executions,
      Map<String, List<String>> accountDependencies,
      Instant now) {
    return jdbi.inTransaction(
        handle -> {
          lockQueue(handle, pr.repository());
          Created row = insertOrFind(handle, pr, true, now);
          long id = row.deployment().id();
          if (!row.created()) {
            int claimed =
                handle
                    .createUpdate(
                        "UPDATE deployments SET stack_stored = true WHERE id = :id AND NOT stack_stored")
                    .bind("id", id)
                    .execute();
            if (claimed == 0) {
              return row;
            }
          }
          handle
              .createUpdate("UPDATE deployments SET range_base = :base WHERE id = :id")
              .bind("base", rangeBase)
              .bind("id", id)
              .execute();
          insertExecutions(handle, id, executions, now);
          PreparedBatch accounts =
              handle.prepareBatch(
                  "INSERT INTO account_dependencies (deployment_id, account, depends_on)"
                      + " VALUES (:deployment, :account, :dependsOn)");
          accountDependencies.forEach(
              (account, dependsOn) ->
                  dependsOn.forEach(
                      dependency ->
                          accounts
                              .bind("deployment", id)
                              .bind("account", account)
                              .bind("dependsOn", dependency)
                              .add()));
          if (accounts.size() > 0) {
            accounts.execute();
          }
          return new Created(find(handle, id).orElseThrow(), true);
        });
  }

  /** Inserts the merge's deployment, queued, unless the merge has one already. */
  private static Created insertOrFind(
      Handle handle, MergedPullRequest pr, boolean stackStored, Instant now) {
    Optional<Long> inserted =
        handle
            .createQuery(
                "INSERT INTO deployments (repository, pr_number, base_ref, head_ref, base_commit,"
                    + " merge_commit, head_commit, commits, drift_run, status, stack_stored, created_at,"
                    + " pr_title, pr_author) VALUES"
                    + " (:repository, :number, :baseRef, :headRef, :baseCommit, :mergeCommit,"
                    + " :headCommit, :commits, :driftRun, 'queued', :stackStored, :now, :title,"
                    + " :author) ON CONFLICT ON CONSTRAINT"
                    + " deployments_one_per_merge DO NOTHING RETURNING id")
            .bind("repository", pr.repository())
            .bind("number", pr.number())
            .bind("baseRef", pr.baseRef())
            .bind("headRef", pr.headRef())
            .bind("baseCommit", pr.baseCommit())
            .bind("mergeCommit", pr.mergeCommit())
            .bind("headCommit", pr.headCommit())
            .bind("commits", pr.commits())
            .bind("driftRun", pr.driftRun())
            .bind("stackStored", stackStored)
            .bind("now", Timestamp.from(now))
            .bind("title", pr.title())
            .bind("author", pr.author())
            .mapTo(Long.class)
            .findOne();
    if (inserted.isPresent()) {
      return new Created(find(handle, inserted.get()).orElseThrow(), true);
    }
    Deployment existing =
        handle
            .createQuery(
                "SELECT "
                    + COLUMNS
                    + " FROM deployments WHERE repository = :repository AND merge_commit = :mergeCommit"
                    + " AND drift_run IS NOT DISTINCT FROM CAST(:driftRun AS text)")
            .bind("repository", pr.repository())
            .bind("mergeCommit", pr.mergeCommit())
            .bind("driftRun", pr.driftRun())
            .map((rs, ctx) -> deployment(rs))
            .one();
    return new Created(existing, false);
  }

  /** Inserts executions and their edges; dependencies name units of the same phase. */
  static void insertExecutions(
      Handle handle, long deploymentId, List<ExecutionSpec> executions, Instant now) {
    PreparedBatch rows =
        handle.prepareBatch(
            "INSERT INTO executions (deployment_id, name, unit, account, layer,"
                + " is_rollback, status, pending_dependencies, plan_commands, apply_commands, voters, min_approvals,"
                + " min_rejections, plan_role, apply_role, destroy_targets, is_destroy, created_at) VALUES (:deployment, :name, :unit,"
                + " :account, :layer, :rollback, 'waiting', :pending, CAST(:plan AS jsonb), CAST(:apply AS jsonb), :voters,"
                + " :minApprovals, :minRejections, :planRole, :applyRole, :destroyTargets, :destroy, :now)");
    Set<String> units = new HashSet<>();
    for (ExecutionSpec spec : executions) {
      if (!units.add(spec.unit())) {
        throw new LivegateException(
            "unit " + spec.unit() + " is listed twice for deployment " + deploymentId);
      }
      rows.bind("deployment", deploymentId)
          .bind("name", ExecutionNames.of(deploymentId, spec.unit(), spec.rollback()))
          .bind("unit", spec.unit())
          .bind("account", spec.account())
          .bind("layer", spec.layer())
          .bind("rollback", spec.rollback())
          .bind("pending", spec.dependsOn().size())
          .bind("plan", Json.commands(spec.planCommands()))
          .bind("apply", Json.commands(spec.applyCommands()))
          .bind("voters", spec.voters().toArray(String[]::new))
          .bind("minApprovals", spec.minApprovals())
          .bind("minRejections", spec.minRejections())
          .bind("planRole", spec.planRole())
          .bind("applyRole", spec.applyRole())
          .bind("destroyTargets", spec.destroyTargets().toArray(String[]::new))
          .bind("destroy", spec.destroy())
          .bind("now", Timestamp.from(now))
          .add();
    }
    if (executions.isEmpty()) {
      return;
    }
    rows.execute();
    boolean rollback = executions.get(0).rollback();
    Map<String, Long> ids = new HashMap<>();
    handle
        .createQuery(
            "SELECT id, unit FROM executions WHERE deployment_id = :deployment AND is_rollback = :rollback")
        .bind("deployment", deploymentId)
        .bind("rollback", rollback)
        .map((rs, ctx) -> Map.entry(rs.getString("unit"), rs.getLong("id")))
        .forEach(entry -> ids.put(entry.getKey(), entry.getValue()));
    PreparedBatch edges =
        handle.prepareBatch(
            "INSERT INTO execution_dependencies (execution_id, depends_on) VALUES (:execution, :dependsOn)");
    for (ExecutionSpec spec : executions) {
      for (String dependency : spec.dependsOn()) {
        Long target = ids.get(dependency);
        if (target == null) {
          throw new LivegateException(
              "execution "
                  + spec.unit()
                  + " depends on "
                  + dependency
                  + ", which is not part of deployment "
                  + deploymentId);
        }
        edges.bind("execution", ids.get(spec.unit())).bind("dependsOn", target).add();
      }
    }
    if (edges.size() > 0) {
      edges.execute();
    }
  }

  @Override
  public boolean cover(long id, long coveredBy) {
    return jdbi.withHandle(
            handle ->
                handle
                    .createUpdate(
                        "UPDATE deployments SET stack_stored = true, covered_by = :by,"
                            + " range_base = merge_commit WHERE id = :id AND NOT stack_stored")
                    .bind("id", id)
                    .bind("by", coveredBy)
                    .execute())
        == 1;
  }

  @Override
  public Optional<Deployment> lastDeployed(String repository, long excluding) {
    return jdbi.withHandle(
        handle ->
            handle
                .createQuery(
                    "SELECT "
                        + COLUMNS
                        + " FROM deployments WHERE repository = :repository AND id <> :excluding"
                        + " AND stack_stored AND started_at IS NOT NULL AND drift_run IS NULL"
                        + " AND covered_by IS NULL ORDER BY started_at DESC, id DESC LIMIT 1")
                .bind("repository", repository)
                .bind("excluding", excluding)
                .map((rs, ctx) -> deployment(rs))
                .findOne());
  }

  @Override
  public Optional<Deployment> find(long id) {
    return jdbi.withHandle(handle -> find(handle, id));
  }

  private static Optional<Deployment> find(Handle handle, long id) {
    return handle
        .createQuery("SELECT " + COLUMNS + " FROM deployments WHERE id = :id")
        .bind("id", id)
        .map((rs, ctx) -> deployment(rs))
        .findOne();
  }

  @Override
  public Map<String, Set<String>> accountWaits(long id) {
    Map<String, Set<String>> waits = new TreeMap<>();
    jdbi.useHandle(
        handle ->
            handle
                .createQuery(
                    "SELECT account, depends_on FROM account_dependencies WHERE deployment_id = :id")
                .bind("id", id)
                .map((rs, ctx) -> Map.entry(rs.getString(1), rs.getString(2)))
                .forEach(
                    entry ->
                        waits
                            .computeIfAbsent(entry.getKey(), account -> new TreeSet<>())
                            .add(entry.getValue())));
    return waits;
  }

  @Override
  public List<Deployment> all() {
    return jdbi.withHandle(
        handle ->
            handle
                .createQuery("SELECT " + COLUMNS + " FROM deployments ORDER BY queue_position")
                .map((rs, ctx) -> deployment(rs))
                .list());
  }

  @Override
  public List<Deployment> list(String repository) {
    return jdbi.withHandle(
        handle ->
            handle
                .createQuery(
                    "SELECT "
                        + COLUMNS
                        + " FROM deployments WHERE repository = :repository ORDER BY queue_position")
                .bind("repository", repository)
                .map((rs, ctx) -> deployment(rs))
                .list());
  }

  @Override
  public Optional<Deployment> lockHolder(String repository) {
    return jdbi.withHandle(
        handle ->
            handle
                .createQuery(
                    "SELECT "
                        + COLUMNS
                        + " FROM deployments WHERE repository = :repository"
                        + " AND status IN ('running', 'rolling_back', 'rollback_failed')")
                .bind("repository", repository)
                .map((rs, ctx) -> deployment(rs))
                .findOne());
  }

  @Override
  public Optional<Deployment> startNext(String repository, Instant now) {
    return jdbi.inTransaction(
        handle -> {
          lockQueue(handle, repository);
          return handle
              .createQuery(
                  "UPDATE deployments SET status = 'running',"
                      + " started_at = :now WHERE id = (SELECT id FROM deployments WHERE repository = :repository"
                      + " AND status = 'queued' AND NOT EXISTS (SELECT 1 FROM deployments held WHERE held.repository ="
                      + " :repository AND held.status IN ('running', 'rolling_back', 'rollback_failed'))"
                      + " ORDER BY queue_position LIMIT 1) RETURNING "
                      + COLUMNS)
              .bind("repository", repository)
              .bind("now", Timestamp.from(now))
              .map((rs, ctx) -> deployment(rs))
              .findOne();
        });
  }

  /**
   * Makes the queue of one repository a critical section until the transaction ends. Creates take
   * turns, so queue positions are handed out in commit order: otherwise a merge could take its
   * position, then commit after a later merge had found itself first and started. Starts take
   * turns, so each one's statements see the queue as the previous start left it: otherwise a start
   * could pass over the oldest queued deployment while another start is still taking it.
   */
  private static void lockQueue(Handle handle, String repository) {
    handle
        .createQuery("SELECT 1 FROM pg_advisory_xact_lock(hashtextextended(:repository, 0))")
        .bind("repository", repository)
        .mapTo(Integer.class)
        .one();
  }

  @Override
  public boolean transition(long id, DeploymentStatus from, DeploymentStatus to, Instant now) {
    return jdbi.withHandle(
            handle ->
                handle
                    .createUpdate(
                        "UPDATE deployments SET status = :to,"
                            + " finished_at = CASE WHEN :finished THEN :now ELSE finished_at END WHERE id = :id AND status = :from")
                    .bind("id", id)
                    .bind("from", from.id())
                    .bind("to", to.id())
                    .bind("finished", to.isFinished() || to == DeploymentStatus.ROLLBACK_FAILED)
                    .bind("now", Timestamp.from(now))
                    .execute())
        == 1;
  }

  @Override
  public boolean startRollback(long id, List<ExecutionSpec> rollbacks, Instant now) {
    return jdbi.inTransaction(
        handle -> {
          int moved =
              handle
                  .createUpdate(
                      "UPDATE deployments SET status = 'rolling_back' WHERE id = :id"
                          + " AND status = 'running'")
                  .bind("id", id)
                  .execute();
          if (moved == 1) {
            insertExecutions(handle, id, rollbacks, now);
          }
          return moved == 1;
        });
  }

  private static Deployment deployment(ResultSet rs) throws SQLException {
    MergedPullRequest pr =
        new MergedPullRequest(
            rs.getString("repository"),
            rs.getInt("pr_number"),
            rs.getString("base_ref"),
            rs.getString("head_ref"),
            rs.getString("base_commit"),
            rs.getString("merge_commit"),
            rs.getString("head_commit"),
            rs.getInt("commits"),
            rs.getString("drift_run"),
            rs.getString("pr_title"),
            rs.getString("pr_author"));
    return new Deployment(
        rs.getLong("id"),
        pr,
        DeploymentStatus.fromId(rs.getString("status")),
        rs.getLong("queue_position"),
        rs.getBoolean("stack_stored"),
        ExecutionRows.instant(rs.getTimestamp("created_at")),
        ExecutionRows.instant(rs.getTimestamp("started_at")),
        ExecutionRows.instant(rs.getTimestamp("finished_at")),
        rs.getString("range_base"),
        rs.getObject("covered_by", Long.class));
  }
}
