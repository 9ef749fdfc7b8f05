package io.livegate.sql;

import static io.livegate.sql.testing.SyntheticDeployments.unit;
import static org.assertj.core.api.Assertions.assertThat;

import io.livegate.core.account.Accounts;
import io.livegate.core.deploy.DeploymentStatus;
import io.livegate.core.deploy.Execution;
import io.livegate.core.deploy.ExecutionStatus;
import io.livegate.core.deploy.FailurePolicy;
import io.livegate.core.deploy.ReleaseRule;
import io.livegate.core.stack.PlannedExecution;
import io.livegate.sql.testing.EmbeddedMetadb;
import io.livegate.sql.testing.SyntheticDeployments;
import io.livegate.sql.testing.TestEngine;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The release query in SQL against its specification, {@link ReleaseRule}: after every step, the
 * executions that {@code claimReady} claims are exactly those the rule called ready just before.
 */
class ReleaseConformanceTest {
  private static final int SEEDS = 12;

  /** What one seed's deployment went through. */
  private record Run(int claims, int rollbacksClaimed) {}

  /** Claims what is ready, checking it against the rule on the state read just before. */
  private static List<Execution> claimAsTheRuleSays(TestEngine engine, long id, String step) {
    List<Execution> before = engine.executions.list(id);
    Map<Long, Execution> byId =
        before.stream().collect(Collectors.toMap(Execution::id, Function.identity()));
    Map<String, Set<String>> waits = engine.deployments.accountWaits(id);
    Set<Long> ready =
        before.stream()
            .filter(execution -> ReleaseRule.isReady(execution, byId, before, waits))
            .map(Execution::id)
            .collect(Collectors.toSet());

    List<Execution> claimed = engine.executions.claimReady(id, Instant.now());

    assertThat(claimed)
        .as(step)
        .extracting(Execution::id)
        .containsExactlyInAnyOrderElementsOf(ready);
    assertThat(claimed).as(step).isSortedAccordingTo(Comparator.comparing(Execution::unit));
    return claimed;
  }

  /**
   * Mostly a success. Failures and rejections come once half the units were claimed, so that the
   * rollbacks span several accounts; rollbacks fail more often, so that their phase sees failures.
   */
  private static ExecutionStatus outcome(Random random, Execution execution, boolean late) {
    if (!execution.rollback() && !late) {
      return ExecutionStatus.SUCCEEDED;
    }
    double roll = random.nextDouble() * (execution.rollback() ? 0.12 : 1);
    return roll < 0.05
        ? ExecutionStatus.FAILED
        : roll < 0.08 ? ExecutionStatus.REJECTED : ExecutionStatus.SUCCEEDED;
  }

  private static Run drive(long seed) {
    Random random = new Random(seed);
    FailurePolicy policy = seed % 3 == 0 ? FailurePolicy.ABORT_ALL : FailurePolicy.ABORT_DEPENDENTS;
    TestEngine engine = new TestEngine(EmbeddedMetadb.fresh(), policy);
    Accounts accounts = SyntheticDeployments.accounts(2 + random.nextInt(4));
    List<PlannedExecution> units =
        SyntheticDeployments.layered(seed, 30 + random.nextInt(30), accounts, 0.3);
    long id =
        engine.create.create(SyntheticDeployments.command(1, accounts, units)).deployment().id();
    List<Execution> running = new ArrayList<>();
    int claims = 0;
    int rollbacksClaimed = 0;
    for (int step = 0; ; step++) {
      List<Execution> claimed = claimAsTheRuleSays(engine, id, "seed " + seed + ", step " + step);
      claims += claimed.size();
      rollbacksClaimed += (int) claimed.stream().filter(Execution::rollback).count();
      running.addAll(claimed);
      if (running.isEmpty()) {
        return new Run(claims, rollbacksClaimed);
      }
      for (int outcomes = 1 + random.nextInt(2); outcomes > 0 && !running.isEmpty(); outcomes--) {
        Execution execution = running.remove(random.nextInt(running.size()));
        if (!execution.rollback() && random.nextDouble() < 0.5) {
          engine.executions.recordNewResources(execution.id(), List.of("terraform_data.new"));
        }
        ExecutionStatus outcome = outcome(random, execution, claims > units.size() / 2);
        if (random.nextDouble() < (outcome == ExecutionStatus.FAILED ? 0.5 : 0.05)) {
          // The store alone, without the failure policy: states that the use cases never leave
          // behind, such as a failure whose dependents still wait, are the rule's to judge too.
          engine.executions.transition(
              execution.id(), ExecutionStatus.RUNNING, outcome, Instant.now());
        } else {
          engine.outcomes.record(execution.id(), outcome);
        }
      }
    }
  }

  @Test
  void claimReadyReleasesExactlyWhatTheReleaseRuleCallsReadyAfterEveryOutcome() {
    List<Run> runs = new ArrayList<>();
    for (long seed = 1; seed <= SEEDS; seed++) {
      runs.add(drive(seed));
    }

    assertThat(runs).allSatisfy(run -> assertThat(run.claims()).isGreaterThan(20));
    assertThat(runs)
        .as("seeds that went through a rollback phase")
        .filteredOn(run -> run.rollbacksClaimed() > 0)
        .hasSizeGreaterThanOrEqualTo(SEEDS / 3);
  }

  @Test
  void aFailedRollbackHoldsBackTheRollbacksOfTheAccountsItDependsOn() {
    TestEngine engine = TestEngine.fresh();
    Accounts accounts = SyntheticDeployments.accounts(2);
    long id =
        engine
            .create
            .create(
                SyntheticDeployments.command(
                    1,
                    accounts,
                    List.of(
                        unit("account-0/base", "account-0", 0, List.of()),
                        unit("account-1/app", "account-1", 1, List.of()),
                        unit("account-1/extra", "account-1", 1, List.of()))))
            .deployment()
            .id();
    Execution base = claimAsTheRuleSays(engine, id, "base").get(0);
    engine.executions.recordNewResources(base.id(), List.of("terraform_data.base"));
    engine.outcomes.record(base.id(), ExecutionStatus.SUCCEEDED);
    List<Execution> accountOne = claimAsTheRuleSays(engine, id, "account-1");
    engine.executions.recordNewResources(accountOne.get(0).id(), List.of("terraform_data.app"));
    engine.outcomes.record(accountOne.get(0).id(), ExecutionStatus.SUCCEEDED);
    engine.outcomes.record(accountOne.get(1).id(), ExecutionStatus.FAILED);
    assertThat(engine.deployments.find(id).orElseThrow().status())
        .isEqualTo(DeploymentStatus.ROLLING_BACK);
    List<Execution> appRollback = claimAsTheRuleSays(engine, id, "app's rollback");
    assertThat(appRollback).extracting(Execution::unit).containsExactly("account-1/app");

    // Straight through the store, so that no failure policy aborts base's rollback.
    engine.executions.transition(
        appRollback.get(0).id(), ExecutionStatus.RUNNING, ExecutionStatus.FAILED, Instant.now());

    assertThat(claimAsTheRuleSays(engine, id, "after app's rollback failed")).isEmpty();
  }
}
