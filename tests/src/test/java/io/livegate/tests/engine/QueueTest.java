package io.livegate.tests.engine;

import static io.livegate.sql.testing.Scenarios.REPOSITORY;
import static io.livegate.sql.testing.SyntheticDeployments.command;
import static io.livegate.sql.testing.SyntheticDeployments.unit;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import io.livegate.core.LivegateException;
import io.livegate.core.account.Accounts;
import io.livegate.core.deploy.CreateDeployment;
import io.livegate.core.deploy.CreateDeploymentCommand;
import io.livegate.core.deploy.Deployment;
import io.livegate.core.deploy.DeploymentStatus;
import io.livegate.core.deploy.ExecutionStatus;
import io.livegate.core.deploy.OutcomeResult;
import io.livegate.core.stack.PlannedExecution;
import io.livegate.sql.testing.SyntheticDeployments;
import io.livegate.sql.testing.TestEngine;
import io.livegate.sql.testing.Together;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.jdbi.v3.core.Handle;
import org.junit.jupiter.api.Test;

class QueueTest {
  private static final Accounts ACCOUNTS = SyntheticDeployments.accounts(2);
  private final TestEngine engine = TestEngine.fresh();

  private static CreateDeploymentCommand oneUnit(int prNumber) {
    return command(prNumber, ACCOUNTS, List.of(unit("account-0/solo", "account-0", 0, List.of())));
  }

  private static CreateDeploymentCommand twoUnits(int prNumber) {
    return command(
        prNumber,
        ACCOUNTS,
        List.of(
            unit("account-0/network", "account-0", 0, List.of()),
            unit("account-1/app", "account-1", 1, List.of("account-0/network"))));
  }

  private DeploymentStatus status(long deploymentId) {
    return engine.deployments.find(deploymentId).orElseThrow().status();
  }

  /** Rows per table, every table of the metadb but Flyway's own. */
  private Map<String, Integer> rowCounts() {
    return engine
        .metadb
        .jdbi()
        .withHandle(
            handle -> {
              Map<String, Integer> counts = new TreeMap<>();
              handle
                  .createQuery(
                      "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'"
                          + " AND table_type = 'BASE TABLE' AND table_name <> 'flyway_schema_history'")
                  .mapTo(String.class)
                  .forEach(
                      table ->
                          counts.put(
                              table,
                              handle
                                  .createQuery("SELECT count(*) FROM " + table)
                                  .mapTo(Integer.class)
                                  .one()));
              return counts;
            });
  }

  @Test
  void twoMergesCreatedTogetherAreBothQueuedAndRunOneAfterTheOtherInQueueOrder() {
    for (int round = 0; round < 3; round++) {
      TestEngine racing = TestEngine.fresh();
      List<PlannedExecution> large = SyntheticDeployments.layered(round, 40, ACCOUNTS, 0.2);
      List<CreateDeploymentCommand> commands = List.of(command(1, ACCOUNTS, large), oneUnit(2));

      List<CreateDeployment.Result> results =
          Together.run(2, index -> racing.create.create(commands.get(index)));

      List<Deployment> queue = racing.deployments.list(REPOSITORY);
      assertThat(results).allSatisfy(result -> assertThat(result.created()).isTrue());
      assertThat(queue).hasSize(2);
      assertThat(queue.get(0).queuePosition()).isLessThan(queue.get(1).queuePosition());
      assertThat(queue)
          .extracting(Deployment::status)
          .as("round %d", round)
          .containsExactly(DeploymentStatus.RUNNING, DeploymentStatus.QUEUED);
      assertThat(results.stream().flatMap(result -> result.started().stream()))
          .extracting(Deployment::id)
          .containsExactly(queue.get(0).id());

      List<OutcomeResult> outcomes =
          racing.runToEnd(queue.get(0).id(), execution -> ExecutionStatus.SUCCEEDED);

      assertThat(outcomes.subList(0, outcomes.size() - 1))
          .allSatisfy(outcome -> assertThat(outcome.next()).isEmpty());
      assertThat(outcomes.get(outcomes.size() - 1).next())
          .hasValueSatisfying(
              next -> {
                assertThat(next.id()).isEqualTo(queue.get(1).id());
                assertThat(next.status()).isEqualTo(DeploymentStatus.RUNNING);
              });
    }
  }

  @Test
  void aMergeQueuedFirstStartsFirstEvenWhenALaterMergeIsStoredFasterThanIt() throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(2);
    try (Handle blocker = engine.metadb.jdbi().open()) {
      // The first merge takes its queue position, then stalls on the table it writes last. The
      // second merge, of a single account, never writes that table.
      blocker.begin();
      blocker.execute("LOCK TABLE account_dependencies IN EXCLUSIVE MODE");
      Future<CreateDeployment.Result> first = pool.submit(() -> engine.create.create(twoUnits(1)));
      awaitUntil(() -> lockWaiters() == 1);
      Future<CreateDeployment.Result> second =
          pool.submit(
              () ->
                  engine.create.create(
                      command(
                          2,
                          SyntheticDeployments.accounts(1),
                          List.of(unit("account-0/solo", "account-0", 0, List.of())))));
      awaitUntil(() -> second.isDone() || lockWaiters() == 2);
      blocker.rollback();
      first.get(1, TimeUnit.MINUTES);
      second.get(1, TimeUnit.MINUTES);
    } finally {
      pool.shutdownNow();
    }

    assertThat(engine.deployments.list(REPOSITORY))
        .extracting(deployment -> deployment.pullRequest().number(), Deployment::status)
        .containsExactly(tuple(1, DeploymentStatus.RUNNING), tuple(2, DeploymentStatus.QUEUED));
  }

  private int lockWaiters() {
    return engine
        .metadb
        .jdbi()
        .withHandle(
            handle ->
                handle
                    .createQuery(
                        "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()"
                            + " AND wait_event_type = 'Lock'")
                    .mapTo(Integer.class)
                    .one());
  }

  private static void awaitUntil(BooleanSupplier condition) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (!condition.getAsBoolean()) {
      assertThat(System.nanoTime()).as("waited 30 s").isLessThan(deadline);
      Thread.sleep(10);
    }
  }

  @Test
  void theQueuedDeploymentStartsExactlyWhenTheRunningOneFinishes() {
    long first = engine.create.create(twoUnits(1)).deployment().id();
    CreateDeployment.Result second = engine.create.create(oneUnit(2));
    assertThat(second.started()).isEmpty();

    OutcomeResult network =
        engine.outcomes.record(
            engine.release.release(first).get(0).id(), ExecutionStatus.SUCCEEDED);
    assertThat(network.next()).isEmpty();
    assertThat(status(second.deployment().id())).isEqualTo(DeploymentStatus.QUEUED);

    OutcomeResult app =
        engine.outcomes.record(
            engine.release.release(first).get(0).id(), ExecutionStatus.SUCCEEDED);
    assertThat(app.finished()).contains(DeploymentStatus.SUCCEEDED);
    assertThat(app.next()).map(Deployment::id).contains(second.deployment().id());
    assertThat(status(second.deployment().id())).isEqualTo(DeploymentStatus.RUNNING);
  }

  @Test
  void storingTheSameMergeTwiceKeepsOneDeployment() {
    CreateDeployment.Result first = engine.create.create(twoUnits(1));
    Map<String, Integer> rows = rowCounts();

    CreateDeployment.Result again = engine.create.create(twoUnits(1));

    assertThat(first.created()).isTrue();
    assertThat(again.created()).isFalse();
    assertThat(again.deployment().id()).isEqualTo(first.deployment().id());
    assertThat(again.started()).isEmpty();
    assertThat(rowCounts()).isEqualTo(rows);
  }

  @Test
  void theSameMergeStoredTwiceAtOnceIsCreatedExactlyOnce() {
    for (int round = 0; round < 5; round++) {
      int prNumber = round;
      List<CreateDeployment.Result> results =
          Together.run(2, index -> engine.create.create(twoUnits(prNumber)));

      assertThat(results).filteredOn(CreateDeployment.Result::created).hasSize(1);
      assertThat(results)
          .extracting(result -> result.deployment().id())
          .containsOnly(results.get(0).deployment().id());
    }
    assertThat(engine.deployments.list(REPOSITORY)).hasSize(5);
    assertThat(rowCounts()).containsEntry("executions", 10);
  }

  @Test
  void aStackWithADependencyOutsideTheDeploymentIsRefusedAndLeavesNoRows() {
    CreateDeploymentCommand broken =
        command(
            1,
            ACCOUNTS,
            List.of(
                unit("account-0/network", "account-0", 0, List.of()),
                unit("account-1/app", "account-1", 1, List.of("account-0/elsewhere"))));

    assertThatThrownBy(() -> engine.create.create(broken))
        .isInstanceOf(LivegateException.class)
        .hasMessageContaining("account-1/app depends on account-0/elsewhere");
    assertThat(rowCounts()).allSatisfy((table, rows) -> assertThat(rows).as(table).isZero());
  }

  @Test
  void aStackThatListsAUnitTwiceIsRefusedAndLeavesNoRows() {
    CreateDeploymentCommand twice =
        command(
            1,
            ACCOUNTS,
            List.of(
                unit("account-0/network", "account-0", 0, List.of()),
                unit("account-0/network", "account-0", 0, List.of())));

    assertThatThrownBy(() -> engine.create.create(twice))
        .isInstanceOf(LivegateException.class)
        .hasMessageContaining("account-0/network");
    assertThat(rowCounts()).allSatisfy((table, rows) -> assertThat(rows).as(table).isZero());
  }

  @Test
  void startNextRacingFromSeveralThreadsStartsAtMostOne() {
    long running = engine.create.create(oneUnit(1)).deployment().id();
    for (int prNumber = 2; prNumber <= 6; prNumber++) {
      engine.create.create(oneUnit(prNumber));
    }
    for (int round = 0; round < 5; round++) {
      engine.deployments.transition(
          running, DeploymentStatus.RUNNING, DeploymentStatus.SUCCEEDED, Instant.now());

      List<Optional<Deployment>> started =
          Together.run(8, index -> engine.startNext.startNext(REPOSITORY));

      List<Deployment> queue = engine.deployments.list(REPOSITORY);
      List<Deployment> holding =
          queue.stream().filter(d -> d.status() == DeploymentStatus.RUNNING).toList();
      assertThat(started.stream().flatMap(Optional::stream))
          .extracting(Deployment::id)
          .containsExactly(queue.get(round + 1).id());
      assertThat(holding).extracting(Deployment::id).containsExactly(queue.get(round + 1).id());
      running = holding.get(0).id();
    }
  }

  @Test
  void aDeploymentWithNothingToDeploySucceedsAtOnce() {
    CreateDeployment.Result empty = engine.create.create(command(1, ACCOUNTS, List.of()));

    assertThat(empty.started()).isEmpty();
    Deployment stored = engine.deployments.find(empty.deployment().id()).orElseThrow();
    assertThat(stored.status()).isEqualTo(DeploymentStatus.SUCCEEDED);
    assertThat(stored.finishedAt()).isNotNull();
  }

  @Test
  void aQueuedDeploymentWithNothingToDeploySucceedsAndTheOneAfterItStarts() {
    long first = engine.create.create(oneUnit(1)).deployment().id();
    long empty = engine.create.create(command(2, ACCOUNTS, List.of())).deployment().id();
    long third = engine.create.create(oneUnit(3)).deployment().id();

    OutcomeResult last =
        engine.outcomes.record(
            engine.release.release(first).get(0).id(), ExecutionStatus.SUCCEEDED);

    assertThat(last.next()).map(Deployment::id).contains(third);
    assertThat(status(empty)).isEqualTo(DeploymentStatus.SUCCEEDED);
    assertThat(status(third)).isEqualTo(DeploymentStatus.RUNNING);
  }
}
