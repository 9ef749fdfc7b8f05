package io.livegate.sql;

import static io.livegate.sql.testing.SyntheticDeployments.command;
import static io.livegate.sql.testing.SyntheticDeployments.unit;
import static org.assertj.core.api.Assertions.assertThat;

import io.livegate.core.account.Accounts;
import io.livegate.core.deploy.Deployment;
import io.livegate.core.deploy.DeploymentStatus;
import io.livegate.core.deploy.DeploymentStore;
import io.livegate.core.deploy.Execution;
import io.livegate.core.deploy.ExecutionSpec;
import io.livegate.core.deploy.ExecutionStatus;
import io.livegate.core.deploy.FailurePolicy;
import io.livegate.core.deploy.MergedPullRequest;
import io.livegate.core.deploy.OutcomeResult;
import io.livegate.core.deploy.RecordOutcome;
import io.livegate.core.deploy.RollbackExecutions;
import io.livegate.core.runner.RunnerArgv;
import io.livegate.core.stack.PlannedExecution;
import io.livegate.core.vote.Vote;
import io.livegate.core.vote.VoteResult;
import io.livegate.sql.testing.SyntheticDeployments;
import io.livegate.sql.testing.TestEngine;
import io.livegate.sql.testing.Together;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class ConcurrencyTest {
  private final TestEngine engine = TestEngine.fresh();

  /** What a racing thread did, in the order the threads did it. */
  private record Event(boolean claim, long executionId) {}

  @Test
  void twentyThreadsReleasingAndSucceedingTogetherRunEveryExecutionOnceAndInOrder() {
    Accounts accounts = SyntheticDeployments.accounts(5);
    List<PlannedExecution> units = SyntheticDeployments.layered(20, 200, accounts, 0.2);
    long id = engine.create.create(command(1, accounts, units)).deployment().id();
    // A success is logged before it is recorded and a claim after it is made, so a claim that
    // comes after a dependency's success in time comes after it in the log as well.
    List<Event> log = Collections.synchronizedList(new ArrayList<>());

    Together.run(
        20,
        thread -> {
          while (!engine.deployments.find(id).orElseThrow().status().isFinished()) {
            List<Execution> released = engine.release.release(id);
            released.forEach(execution -> log.add(new Event(true, execution.id())));
            for (Execution execution : released) {
              log.add(new Event(false, execution.id()));
              engine.outcomes.record(execution.id(), ExecutionStatus.SUCCEEDED);
            }
            if (released.isEmpty()) {
              pause();
            }
          }
          return null;
        });

    List<Execution> executions = engine.executions.list(id);
    assertThat(engine.deployments.find(id).orElseThrow().status())
        .isEqualTo(DeploymentStatus.SUCCEEDED);
    assertThat(executions)
        .hasSize(200)
        .allSatisfy(e -> assertThat(e.status()).isEqualTo(ExecutionStatus.SUCCEEDED));
    Map<Long, Long> claims = new HashMap<>();
    log.stream().filter(Event::claim).forEach(e -> claims.merge(e.executionId(), 1L, Long::sum));
    assertThat(claims).hasSize(200).allSatisfy((execution, count) -> assertThat(count).isOne());

    Map<String, Set<String>> waits = engine.deployments.accountWaits(id);
    Map<Long, Integer> succeededAt = new HashMap<>();
    Map<Long, Integer> claimedAt = new HashMap<>();
    for (int index = 0; index < log.size(); index++) {
      (log.get(index).claim() ? claimedAt : succeededAt).put(log.get(index).executionId(), index);
    }
    for (Execution execution : executions) {
      int claimed = claimedAt.get(execution.id());
      for (Execution other : executions) {
        boolean waitsFor =
            execution.dependsOn().contains(other.id())
                || waits.getOrDefault(execution.account(), Set.of()).contains(other.account());
        if (waitsFor) {
          assertThat(succeededAt.get(other.id()))
              .as("%s claimed after %s succeeded", execution.unit(), other.unit())
              .isLessThan(claimed);
        }
      }
    }
  }

  /** Lets the threads with work use the two cores of a CI machine. */
  private static void pause() {
    try {
      Thread.sleep(5);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  @Test
  void tenVotersVotingAtTheSameMomentDecideExactlyOnce() {
    List<String> voters = IntStream.range(0, 10).mapToObj(index -> "voter-" + index).toList();
    Accounts accounts = SyntheticDeployments.accounts(1, voters, 5, 4);
    List<PlannedExecution> units =
        IntStream.range(0, 5)
            .mapToObj(index -> unit("account-0/unit-" + index, "account-0", 0, List.of()))
            .toList();
    long id = engine.create.create(command(1, accounts, units)).deployment().id();

    for (Execution execution : engine.release.release(id)) {
      List<VoteResult> results =
          Together.run(
              10,
              index ->
                  engine.castVote.cast(
                      execution.id(),
                      voters.get(index),
                      index < 7 ? Vote.Choice.APPROVE : Vote.Choice.REJECT));

      List<VoteResult.Recorded> recorded =
          results.stream()
              .filter(VoteResult.Recorded.class::isInstance)
              .map(VoteResult.Recorded.class::cast)
              .toList();
      assertThat(recorded)
          .filteredOn(VoteResult.Recorded::decided)
          .singleElement()
          .satisfies(decider -> assertThat(decider.approvals()).isEqualTo(5));
      assertThat(results)
          .allSatisfy(
              result ->
                  assertThat(result)
                      .isInstanceOfAny(VoteResult.Recorded.class, VoteResult.AlreadyDecided.class));
      List<String> counted =
          IntStream.range(0, 10)
              .filter(index -> results.get(index) instanceof VoteResult.Recorded)
              .mapToObj(voters::get)
              .toList();
      assertThat(engine.votes.history(execution.id()))
          .extracting(Vote::voter)
          .containsExactlyInAnyOrderElementsOf(counted);
      assertThat(engine.executions.find(execution.id()).orElseThrow().decision())
          .isEqualTo("approved");
    }
  }

  /** The metadb's store, with {@code beforeFirstFind} run once just before the first find. */
  private static DeploymentStore interleaved(DeploymentStore store, Runnable beforeFirstFind) {
    AtomicBoolean ran = new AtomicBoolean();
    return new DeploymentStore() {
      @Override
      public Created enqueue(MergedPullRequest pullRequest, Instant now) {
        return store.enqueue(pullRequest, now);
      }

      @Override
      public Optional<Deployment> lockHolder(String repository) {
        return store.lockHolder(repository);
      }

      @Override
      public Created create(
          MergedPullRequest pullRequest,
          String rangeBase,
          List<ExecutionSpec> executions,
          Map<String, List<String>> accountDependencies,
          Instant now) {
        return store.create(pullRequest, rangeBase, executions, accountDependencies, now);
      }

      @Override
      public boolean cover(long id, long coveredBy) {
        return store.cover(id, coveredBy);
      }

      @Override
      public Optional<Deployment> lastDeployed(String repository, long excluding) {
        return store.lastDeployed(repository, excluding);
      }

      @Override
      public Optional<Deployment> find(long id) {
        if (ran.compareAndSet(false, true)) {
          beforeFirstFind.run();
        }
        return store.find(id);
      }

      @Override
      public Map<String, Set<String>> accountWaits(long id) {
        return store.accountWaits(id);
      }

      @Override
      public List<Deployment> all() {
        return store.all();
      }

      @Override
      public List<Deployment> list(String repository) {
        return store.list(repository);
      }

      @Override
      public Optional<Deployment> startNext(String repository, Instant now) {
        return store.startNext(repository, now);
      }

      @Override
      public boolean transition(long id, DeploymentStatus from, DeploymentStatus to, Instant now) {
        return store.transition(id, from, to, now);
      }

      @Override
      public boolean startRollback(long id, List<ExecutionSpec> rollbacks, Instant now) {
        return store.startRollback(id, rollbacks, now);
      }
    };
  }

  @Test
  void aLastOutcomeRacingTheStartOfTheRollbackLeavesTheRollbackToRun() {
    Accounts accounts = SyntheticDeployments.accounts(1);
    long id =
        engine
            .create
            .create(
                command(
                    1,
                    accounts,
                    List.of(
                        unit("account-0/x", "account-0", 0, List.of()),
                        unit("account-0/y", "account-0", 0, List.of()))))
            .deployment()
            .id();
    List<Execution> released = engine.release.release(id);
    Execution x = released.get(0);
    engine.executions.recordNewResources(x.id(), List.of("terraform_data.x"));
    // x's failure is stored, and x's trigger goes on while y's outcome is being recorded.
    engine.executions.transition(
        x.id(), ExecutionStatus.RUNNING, ExecutionStatus.FAILED, Instant.now());
    Runnable xStartsTheRollback =
        () ->
            engine.deployments.startRollback(
                id,
                RollbackExecutions.rollbacks(engine.executions.list(id), RunnerArgv.TERRAFORM),
                Instant.now());
    RecordOutcome yTrigger =
        new RecordOutcome(
            interleaved(engine.deployments, xStartsTheRollback),
            engine.executions,
            engine.startNext,
            FailurePolicy.ABORT_DEPENDENTS,
            RunnerArgv.TERRAFORM,
            Clock.systemUTC());

    OutcomeResult y = yTrigger.record(released.get(1).id(), ExecutionStatus.SUCCEEDED);

    assertThat(y.finished()).isEmpty();
    assertThat(y.releaseLock()).isFalse();
    assertThat(engine.deployments.find(id).orElseThrow().status())
        .isEqualTo(DeploymentStatus.ROLLING_BACK);
    assertThat(engine.release.release(id))
        .singleElement()
        .satisfies(rollback -> assertThat(rollback.unit()).isEqualTo("account-0/x"));
  }
}
