package io.livegate.tests.engine;

import static io.livegate.sql.testing.SyntheticDeployments.command;
import static io.livegate.sql.testing.SyntheticDeployments.unit;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import io.livegate.core.account.Accounts;
import io.livegate.core.deploy.CreateDeploymentCommand;
import io.livegate.core.deploy.DeploymentStatus;
import io.livegate.core.deploy.Execution;
import io.livegate.core.deploy.ExecutionStatus;
import io.livegate.core.deploy.FailurePolicy;
import io.livegate.core.deploy.OutcomeResult;
import io.livegate.core.flow.FlowState;
import io.livegate.sql.testing.EmbeddedMetadb;
import io.livegate.sql.testing.SyntheticDeployments;
import io.livegate.sql.testing.TestEngine;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class FailurePolicyTest {
  private static final Accounts ACCOUNTS = SyntheticDeployments.accounts(1);

  /** Two independent chains: network then app, and dns then mail. */
  private static final CreateDeploymentCommand TWO_CHAINS =
      command(
          1,
          ACCOUNTS,
          List.of(
              unit("account-0/dns", "account-0", 0, List.of()),
              unit("account-0/network", "account-0", 0, List.of()),
              unit("account-0/app", "account-0", 1, List.of("account-0/network")),
              unit("account-0/mail", "account-0", 1, List.of("account-0/dns"))));

  private static Execution byUnit(List<Execution> executions, String unit) {
    return executions.stream().filter(e -> e.unit().equals(unit)).findFirst().orElseThrow();
  }

  private static Map<String, ExecutionStatus> statuses(TestEngine engine, long deploymentId) {
    return engine.executions.list(deploymentId).stream()
        .collect(Collectors.toMap(Execution::unit, Execution::status));
  }

  @Test
  void abortAllAbortsEveryUnfinishedExecutionAndAsksToStopTheRunningOnes() {
    TestEngine engine = new TestEngine(EmbeddedMetadb.fresh(), FailurePolicy.ABORT_ALL);
    long id = engine.create.create(TWO_CHAINS).deployment().id();
    List<Execution> released = engine.release.release(id);

    OutcomeResult failed =
        engine.outcomes.record(byUnit(released, "account-0/network").id(), ExecutionStatus.FAILED);

    assertThat(failed.toStop())
        .extracting(Execution::unit, Execution::status)
        .containsExactly(tuple("account-0/dns", ExecutionStatus.RUNNING));
    assertThat(failed.aborted())
        .extracting(Execution::unit)
        .containsExactly("account-0/app", "account-0/dns", "account-0/mail");
    assertThat(statuses(engine, id))
        .containsExactlyInAnyOrderEntriesOf(
            Map.of(
                "account-0/network", ExecutionStatus.FAILED,
                "account-0/dns", ExecutionStatus.ABORTED,
                "account-0/app", ExecutionStatus.ABORTED,
                "account-0/mail", ExecutionStatus.ABORTED));
    assertThat(failed.finished()).contains(DeploymentStatus.FAILED);
    assertThat(failed.releaseLock()).isTrue();
    assertThat(engine.release.release(id)).isEmpty();
  }

  @Test
  void abortAllLetsAnExecutionInApplyFinishAndItsResourcesAreRolledBack() {
    TestEngine engine = new TestEngine(EmbeddedMetadb.fresh(), FailurePolicy.ABORT_ALL);
    long id = engine.create.create(TWO_CHAINS).deployment().id();
    List<Execution> released = engine.release.release(id);
    Execution dns = byUnit(released, "account-0/dns");
    engine.executions.enterFlowState(dns.id(), FlowState.APPLY.stateName(), null, Instant.now());

    OutcomeResult failed =
        engine.outcomes.record(byUnit(released, "account-0/network").id(), ExecutionStatus.FAILED);

    assertThat(failed.toStop()).isEmpty();
    assertThat(failed.aborted())
        .extracting(Execution::unit)
        .containsExactly("account-0/app", "account-0/mail");
    assertThat(failed.finished()).as("the apply of dns is still running").isEmpty();

    engine.executions.recordNewResources(dns.id(), List.of("terraform_data.dns"));
    OutcomeResult applied = engine.outcomes.record(dns.id(), ExecutionStatus.SUCCEEDED);

    assertThat(applied.rollbacksAdded()).isEqualTo(1);
    assertThat(engine.deployments.find(id).orElseThrow().status())
        .isEqualTo(DeploymentStatus.ROLLING_BACK);
    assertThat(engine.executions.find(dns.id()).orElseThrow().newResources())
        .containsExactly("terraform_data.dns");
    assertThat(engine.release.release(id))
        .singleElement()
        .satisfies(
            rollback -> {
              assertThat(rollback.unit()).isEqualTo("account-0/dns");
              assertThat(rollback.rollback()).isTrue();
              assertThat(rollback.spec().destroyTargets()).containsExactly("terraform_data.dns");
            });
  }

  @Test
  void abortDependentsKeepsIndependentRunningAndReadyExecutionsGoing() {
    TestEngine engine = new TestEngine(EmbeddedMetadb.fresh(), FailurePolicy.ABORT_DEPENDENTS);
    long id = engine.create.create(TWO_CHAINS).deployment().id();
    List<Execution> released = engine.release.release(id);
    // dns succeeds, so mail is ready but not yet released when network fails.
    engine.outcomes.record(byUnit(released, "account-0/dns").id(), ExecutionStatus.SUCCEEDED);

    OutcomeResult failed =
        engine.outcomes.record(byUnit(released, "account-0/network").id(), ExecutionStatus.FAILED);

    assertThat(failed.toStop()).isEmpty();
    assertThat(failed.aborted()).extracting(Execution::unit).containsExactly("account-0/app");
    assertThat(failed.finished()).isEmpty();
    List<Execution> mail = engine.release.release(id);
    assertThat(mail).extracting(Execution::unit).containsExactly("account-0/mail");
    OutcomeResult last = engine.outcomes.record(mail.get(0).id(), ExecutionStatus.SUCCEEDED);
    assertThat(statuses(engine, id))
        .containsExactlyInAnyOrderEntriesOf(
            Map.of(
                "account-0/network", ExecutionStatus.FAILED,
                "account-0/dns", ExecutionStatus.SUCCEEDED,
                "account-0/app", ExecutionStatus.ABORTED,
                "account-0/mail", ExecutionStatus.SUCCEEDED));
    assertThat(last.finished()).contains(DeploymentStatus.FAILED);
  }

  @Test
  void abortDependentsLetsARunningIndependentExecutionFinish() {
    TestEngine engine = new TestEngine(EmbeddedMetadb.fresh(), FailurePolicy.ABORT_DEPENDENTS);
    long id = engine.create.create(TWO_CHAINS).deployment().id();
    List<Execution> released = engine.release.release(id);

    OutcomeResult failed =
        engine.outcomes.record(byUnit(released, "account-0/network").id(), ExecutionStatus.FAILED);
    OutcomeResult dns =
        engine.outcomes.record(byUnit(released, "account-0/dns").id(), ExecutionStatus.SUCCEEDED);

    assertThat(failed.toStop()).isEmpty();
    assertThat(dns.recorded()).isTrue();
    assertThat(engine.release.release(id))
        .extracting(Execution::unit)
        .containsExactly("account-0/mail");
  }
}
