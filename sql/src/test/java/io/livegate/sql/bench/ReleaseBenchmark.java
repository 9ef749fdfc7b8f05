package io.livegate.sql.bench;

import io.livegate.core.account.Accounts;
import io.livegate.core.deploy.Execution;
import io.livegate.core.deploy.ExecutionStatus;
import io.livegate.core.deploy.FailurePolicy;
import io.livegate.sql.testing.EmbeddedMetadb;
import io.livegate.sql.testing.Scenarios;
import io.livegate.sql.testing.SyntheticDeployments;
import io.livegate.sql.testing.TestEngine;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.function.Supplier;
import org.jdbi.v3.core.Handle;

/**
 * How long the trigger's two metadb calls take on a metadb with a long history: releasing what is
 * ready, and recording an outcome. It fills a metadb with about a million finished executions,
 * queues deployments of 1,000 and 10,000 waiting executions, and walks each to its end as the
 * trigger does: one outcome, then one release. The baseline is a primary-key lookup of one
 * execution row through JDBI in the same run. A documented command (docs/benchmarks.md), not a
 * test: timings depend on the machine.
 *
 * <p>Run it with {@code ./mvnw -q -pl core,sql -am test -Pbench -DskipTests
 * -Dspotless.check.skip=true}.
 */
public final class ReleaseBenchmark {
  private static final int HISTORY_DEPLOYMENTS = 50_000;
  private static final int HISTORY_SIZE = 20;
  private static final int BASELINE_LOOKUPS = 20_000;
  private static final double GOAL_MILLIS = 10;

  private ReleaseBenchmark() {}

  /** Times of one kind of call, in nanoseconds, in call order. */
  private record Timings(String call, long[] nanos) {
    double median() {
      return percentile(0.5);
    }

    double p95() {
      return percentile(0.95);
    }

    private double percentile(double fraction) {
      long[] sorted = nanos.clone();
      Arrays.sort(sorted);
      return sorted[(int) Math.min(sorted.length - 1, Math.ceil(fraction * sorted.length) - 1)]
          / 1e6;
    }

    String line(Timings baseline) {
      return String.format(
          Locale.ROOT,
          "  %-44s %7d calls  median %7.3f ms  p95 %7.3f ms  (%5.1fx / %5.1fx baseline)",
          call,
          nanos.length,
          median(),
          p95(),
          median() / baseline.median(),
          p95() / baseline.p95());
    }
  }

  public static void main(String[] args) {
    TestEngine engine = new TestEngine(EmbeddedMetadb.fresh(), FailurePolicy.ABORT_DEPENDENTS);
    long started = System.nanoTime();
    engine.metadb.jdbi().useHandle(ReleaseBenchmark::fillHistory);
    Accounts accounts = SyntheticDeployments.accounts(8);
    long small =
        engine
            .create
            .create(
                SyntheticDeployments.command(
                    1_000_001, accounts, SyntheticDeployments.layered(1, 1_000, accounts, 0.2)))
            .deployment()
            .id();
    long large =
        engine
            .create
            .create(
                SyntheticDeployments.command(
                    1_000_002, accounts, SyntheticDeployments.layered(2, 10_000, accounts, 0.2)))
            .deployment()
            .id();
    engine.metadb.jdbi().useHandle(handle -> handle.execute("ANALYZE"));
    double fillSeconds = (System.nanoTime() - started) / 1e9;

    System.out.println("livegate release benchmark");
    engine
        .metadb
        .jdbi()
        .useHandle(
            handle ->
                System.out.printf(
                    Locale.ROOT,
                    "  metadb: %s; %,d executions (%,d edges, %,d votes) in %,d deployments;"
                        + " filled and analyzed in %.1f s%n",
                    handle.createQuery("SHOW server_version").mapTo(String.class).one(),
                    count(handle, "executions"),
                    count(handle, "execution_dependencies"),
                    count(handle, "vote_events"),
                    count(handle, "deployments"),
                    fillSeconds));

    Timings baseline = baseline(engine);
    System.out.println(baseline.line(baseline));
    System.out.println("deployment of 1,000 executions, walked to its end:");
    walk(engine, small).forEach(timings -> System.out.println(timings.line(baseline)));
    System.out.println("deployment of 10,000 executions, walked to its end:");
    List<Timings> largeWalk = walk(engine, large);
    largeWalk.forEach(timings -> System.out.println(timings.line(baseline)));
    Timings early =
        new Timings(
            "release, first 1,000 calls (>= 9,000 pending)",
            Arrays.copyOf(largeWalk.get(0).nanos(), 1_000));
    System.out.println(early.line(baseline));
    System.out.printf(
        Locale.ROOT,
        "goal: a release call <= %.0f ms at 10,000 pending executions: %s (p95 %.3f ms)%n",
        GOAL_MILLIS,
        early.p95() <= GOAL_MILLIS ? "met" : "MISSED",
        early.p95());
  }

  /**
   * Walks a deployment to its end as the trigger does: each outcome is followed by one release.
   * Every execution succeeds.
   */
  private static List<Timings> walk(TestEngine engine, long deploymentId) {
    List<Long> releases = new ArrayList<>();
    List<Long> outcomes = new ArrayList<>();
    Deque<Execution> running = new ArrayDeque<>();
    running.addAll(timed(releases, () -> engine.release.release(deploymentId)));
    while (!running.isEmpty()) {
      Execution execution = running.poll();
      timed(outcomes, () -> engine.outcomes.record(execution.id(), ExecutionStatus.SUCCEEDED));
      running.addAll(timed(releases, () -> engine.release.release(deploymentId)));
    }
    return List.of(
        new Timings("release (ReleaseReadyExecutions)", toArray(releases)),
        new Timings("outcome (RecordOutcome, succeeded)", toArray(outcomes)));
  }

  private static Timings baseline(TestEngine engine) {
    Random random = new Random(7);
    long executions = engine.metadb.jdbi().withHandle(handle -> count(handle, "executions"));
    List<Long> lookups = new ArrayList<>();
    for (int call = 0; call < BASELINE_LOOKUPS; call++) {
      long id = 1 + random.nextInt((int) executions);
      timed(
          lookups,
          () ->
              engine
                  .metadb
                  .jdbi()
                  .withHandle(
                      handle ->
                          handle
                              .createQuery("SELECT * FROM executions WHERE id = :id")
                              .bind("id", id)
                              .mapToMap()
                              .one()));
    }
    return new Timings("baseline: one execution row by primary key", toArray(lookups));
  }

  private static <T> T timed(List<Long> nanos, Supplier<T> call) {
    long start = System.nanoTime();
    T result = call.get();
    nanos.add(System.nanoTime() - start);
    return result;
  }

  private static long[] toArray(List<Long> values) {
    return values.stream().mapToLong(Long::longValue).toArray();
  }

  private static long count(Handle handle, String table) {
    return handle.createQuery("SELECT count(*) FROM " + table).mapTo(Long.class).one();
  }

  /**
   * Finished deployments of four repositories, the benchmark's among them, with their executions,
   * edges, account dependencies, votes and deliveries. 85% succeeded; the rest were rejected or
   * failed part way, with the executions after that aborted, and a failed one rolled back its first
   * two units. Each unit depends on the one before it, and every fifth on one more.
   */
  private static void fillHistory(Handle handle) {
    handle.useTransaction(
        transaction -> {
          transaction
              .createUpdate(
                  """
                  INSERT INTO deployments (id, repository, pr_number, base_ref, head_ref, base_commit,
                                           merge_commit, status, created_at, started_at, finished_at)
                  SELECT d, CASE WHEN d % 4 = 0 THEN :repository ELSE 'acme/history-' || d % 4 END, d,
                         'main', 'feature-' || d, md5('base' || d), md5('merge' || d),
                         CASE WHEN d % 100 < 85 THEN 'succeeded' WHEN d % 100 < 93 THEN 'rejected'
                              ELSE 'failed' END,
                         now() - (:deployments - d) * interval '10 minutes',
                         now() - (:deployments - d) * interval '10 minutes',
                         now() - (:deployments - d) * interval '10 minutes' + interval '8 minutes'
                    FROM generate_series(1, :deployments) d
                  """)
              .bind("repository", Scenarios.REPOSITORY)
              .bind("deployments", HISTORY_DEPLOYMENTS)
              .execute();
          transaction
              .createUpdate(
                  """
                  INSERT INTO executions (id, deployment_id, name, unit, account, layer, is_rollback,
                                          status, pending_dependencies, plan_commands, apply_commands,
                                          voters, min_approvals, min_rejections, plan_role, apply_role,
                                          destroy_targets, plan_artifact, plan_sha256, plan_summary,
                                          decision, decided_at, created_at, started_at, finished_at)
                  SELECT (d - 1) * :size + i + 1, d, 'd' || d || '-' || u.unit_name || '-' || left(md5(u.unit), 12),
                         u.unit, u.account, i, false, s.status, 0,
                         jsonb_build_array(jsonb_build_array('terraform', '-chdir=' || u.unit, 'init', '-input=false', '-no-color'),
                                           jsonb_build_array('terraform', '-chdir=' || u.unit, 'plan', '-out={plan_file}', '-input=false', '-no-color')),
                         jsonb_build_array(jsonb_build_array('terraform', '-chdir=' || u.unit, 'apply', '-input=false', '-no-color', '{plan_file}')),
                         ARRAY['alice', 'bob', 'carol'], 2, 1,
                         'arn:aws:iam::123456789012:role/livegate-plan', 'arn:aws:iam::123456789012:role/livegate-apply',
                         '{}', 'plans/' || d || '/' || i || '.tfplan', md5(u.unit || d),
                         CASE WHEN s.status <> 'aborted' THEN '{"add": 1, "change": 0, "destroy": 0, "newProviders": []}'::jsonb END,
                         CASE s.status WHEN 'aborted' THEN NULL WHEN 'rejected' THEN 'rejected' ELSE 'approved' END,
                         CASE WHEN s.status <> 'aborted' THEN now() END, now(), now(), now()
                    FROM generate_series(1, :deployments) d
                   CROSS JOIN generate_series(0, :size - 1) i
                   CROSS JOIN LATERAL (SELECT 'account-' || i * 4 / :size AS account,
                                              'account-' || i * 4 / :size || '/us-west-2/env-one/unit-' || i AS unit,
                                              'account-' || i * 4 / :size || '-us-west-2-env-one-unit-' || i AS unit_name) u
                   CROSS JOIN LATERAL (SELECT CASE WHEN d % 100 < 85 OR i < d % :size THEN 'succeeded'
                                                   WHEN i = d % :size THEN CASE WHEN d % 100 < 93 THEN 'rejected' ELSE 'failed' END
                                                   ELSE 'aborted' END AS status) s
                  """)
              .bind("deployments", HISTORY_DEPLOYMENTS)
              .bind("size", HISTORY_SIZE)
              .execute();
          transaction.execute(
              "SELECT setval('deployments_id_seq', (SELECT max(id) FROM deployments)),"
                  + " setval('executions_id_seq', (SELECT max(id) FROM executions))");
          transaction.execute(
              """
              INSERT INTO executions (deployment_id, name, unit, account, layer, is_rollback, status,
                                      pending_dependencies, plan_commands, apply_commands, voters,
                                      min_approvals, min_rejections, destroy_targets, decision,
                                      created_at, started_at, finished_at)
              SELECT deployment_id, replace(name, '-account', '-rb-account'), unit, account, 1 - layer, true,
                     'succeeded', 0, plan_commands, apply_commands, voters, 2, 1,
                     ARRAY['terraform_data.this'], 'approved', now(), now(), now()
                FROM executions
               WHERE deployment_id IN (SELECT id FROM deployments WHERE status = 'failed') AND layer < 2
              """);
          transaction
              .createUpdate(
                  """
                  INSERT INTO execution_dependencies (execution_id, depends_on)
                  SELECT (d - 1) * :size + i + 1, (d - 1) * :size + i + 1 - 1 - shift
                    FROM generate_series(1, :deployments) d
                   CROSS JOIN generate_series(1, :size - 1) i
                   CROSS JOIN LATERAL (SELECT 0 AS shift
                                       UNION ALL
                                       SELECT 1 + (d + i) % (i - 1) WHERE i >= 2 AND (d * 31 + i) % 5 = 0) extra
                  """)
              .bind("deployments", HISTORY_DEPLOYMENTS)
              .bind("size", HISTORY_SIZE)
              .execute();
          transaction.execute(
              """
              INSERT INTO account_dependencies (deployment_id, account, depends_on)
              SELECT d.id, waits.account, waits.depends_on
                FROM deployments d
               CROSS JOIN (VALUES ('account-1', 'account-0'), ('account-2', 'account-0'),
                                  ('account-3', 'account-1'), ('account-3', 'account-0')) waits (account, depends_on)
              """);
          transaction.execute(
              """
              INSERT INTO votes (execution_id, voter, choice, cast_at)
              SELECT e.id, v.voter, CASE WHEN e.decision = 'rejected' AND v.voter = 'bob' THEN 'reject'
                                         ELSE 'approve' END, now()
                FROM executions e CROSS JOIN (VALUES ('alice'), ('bob')) v (voter)
               WHERE e.decision IS NOT NULL
              """);
          transaction.execute(
              "INSERT INTO vote_events (execution_id, voter, choice, cast_at)"
                  + " SELECT execution_id, voter, choice, cast_at FROM votes ORDER BY execution_id, voter");
          transaction
              .createUpdate(
                  "INSERT INTO webhook_deliveries (delivery_id, event, received_at)"
                      + " SELECT md5('delivery' || g), 'pull_request', now() FROM generate_series(1, :count) g")
              .bind("count", HISTORY_DEPLOYMENTS * 3)
              .execute();
        });
  }
}
