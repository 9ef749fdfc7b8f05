package io.livegate.tests.engine;

import static io.livegate.sql.testing.Scenarios.REPOSITORY;
import static io.livegate.sql.testing.SyntheticDeployments.command;
import static io.livegate.sql.testing.SyntheticDeployments.unit;
import static org.assertj.core.api.Assertions.assertThat;

import io.livegate.core.account.Accounts;
import io.livegate.core.deploy.CreateDeployment;
import io.livegate.core.deploy.Deployment;
import io.livegate.core.deploy.DeploymentStatus;
import io.livegate.core.deploy.Execution;
import io.livegate.core.deploy.ExecutionStatus;
import io.livegate.core.deploy.OutcomeResult;
import io.livegate.core.drift.DriftReport;
import io.livegate.core.runner.RunnerArgv;
import io.livegate.core.stack.PlannedExecution;
import io.livegate.scan.QueueReconcile;
import io.livegate.scan.ScanCommand;
import io.livegate.sql.testing.SyntheticDeployments;
import io.livegate.sql.testing.TestEngine;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The drift reconcile on the metadb (embedded PostgreSQL): queued by {@link QueueReconcile} into
 * the queue merges use, at a head that a merge already deployed, holding only the drifted units.
 */
class ReconcileQueueTest {
  private static final Accounts ACCOUNTS = SyntheticDeployments.accounts(2);
  private static final List<PlannedExecution> EVERY_UNIT =
      List.of(
          unit("account-0/network", "account-0", 0, List.of()),
          unit("account-1/app", "account-1", 1, List.of("account-0/network")),
          unit("account-1/web", "account-1", 2, List.of("account-1/app")));
  private final TestEngine engine = TestEngine.fresh();
  private final List<ScanCommand> scans = new ArrayList<>();

  /** The scan of every unit at the head: the graph scan's answer for this repository. */
  private QueueReconcile queueReconcile() {
    return new QueueReconcile(
        engine.create,
        scan -> {
          scans.add(scan);
          return SyntheticDeployments.stack(null, scan.head(), ACCOUNTS, EVERY_UNIT);
        },
        ACCOUNTS,
        RunnerArgv.TERRAFORM);
  }

  private static DriftReport appDrifted(String head) {
    return new DriftReport(
        head,
        3,
        List.of(
            new DriftReport.DriftedUnit(
                "account-1/app", "account-1", List.of("terraform_data.this: update"))),
        List.of());
  }

  private QueueReconcile.Queued reconcile(String head, String driftRun) {
    return queueReconcile()
        .queue(REPOSITORY, "main", Path.of("/checkout"), appDrifted(head), driftRun, Map.of(), 2);
  }

  @Test
  void aReconcileAtTheHeadAMergeDeployedIsANewDeploymentQueuedBehindTheRunningMerge() {
    CreateDeployment.Result merge = engine.create.create(command(1, ACCOUNTS, EVERY_UNIT));
    String head = merge.deployment().pullRequest().mergeCommit();

    QueueReconcile.Queued queued = reconcile(head, "run-1");

    Deployment reconcile = queued.result().deployment();
    assertThat(queued.result().created()).isTrue();
    assertThat(queued.result().started()).isEmpty();
    assertThat(reconcile.id()).isNotEqualTo(merge.deployment().id());
    assertThat(reconcile.status()).isEqualTo(DeploymentStatus.QUEUED);
    assertThat(reconcile.pullRequest().reconcile()).isTrue();
    assertThat(reconcile.pullRequest().driftRun()).isEqualTo("run-1");
    assertThat(reconcile.pullRequest().mergeCommit()).isEqualTo(head);
    assertThat(reconcile.queuePosition()).isGreaterThan(merge.deployment().queuePosition());
    assertThat(scans).singleElement().satisfies(scan -> assertThat(scan.all()).isTrue());
    assertThat(engine.executions.list(reconcile.id()))
        .extracting(Execution::unit)
        .containsExactly("account-1/app");
    List<String> kinds =
        engine
            .metadb
            .jdbi()
            .withHandle(
                handle ->
                    handle
                        .createQuery("SELECT kind FROM deployments ORDER BY id")
                        .mapTo(String.class)
                        .list());
    assertThat(kinds).containsExactly("merge", "reconcile");
  }

  @Test
  void theSameDriftRunQueuedTwiceIsOneDeploymentAndAnotherRunIsAnother() {
    engine.create.create(command(1, ACCOUNTS, EVERY_UNIT));

    QueueReconcile.Queued first = reconcile("merge-1", "run-1");
    QueueReconcile.Queued again = reconcile("merge-1", "run-1");
    QueueReconcile.Queued next = reconcile("merge-1", "run-2");

    assertThat(again.result().created()).isFalse();
    assertThat(again.result().deployment().id()).isEqualTo(first.result().deployment().id());
    assertThat(next.result().created()).isTrue();
    assertThat(engine.deployments.list(REPOSITORY)).hasSize(3);
    assertThat(engine.executions.list(first.result().deployment().id())).hasSize(1);
  }

  @Test
  void theReconcileStartsWhenTheMergeAheadOfItFinishesAndReleasesItsDriftedUnit() {
    long merge = engine.create.create(command(1, ACCOUNTS, EVERY_UNIT)).deployment().id();
    long reconcile = reconcile("merge-1", "run-1").result().deployment().id();

    List<OutcomeResult> outcomes = engine.runToEnd(merge, execution -> ExecutionStatus.SUCCEEDED);

    assertThat(outcomes.get(outcomes.size() - 1).next()).map(Deployment::id).contains(reconcile);
    assertThat(engine.deployments.find(reconcile).orElseThrow().status())
        .isEqualTo(DeploymentStatus.RUNNING);
    assertThat(engine.release.release(reconcile))
        .extracting(Execution::unit)
        .containsExactly("account-1/app");
  }

  @Test
  void aMergeOfTheSameCommitAfterAReconcileIsStillOneDeploymentPerMerge() {
    reconcile("merge-1", "run-1");

    CreateDeployment.Result merge = engine.create.create(command(1, ACCOUNTS, EVERY_UNIT));
    CreateDeployment.Result again = engine.create.create(command(1, ACCOUNTS, EVERY_UNIT));

    assertThat(merge.created()).isTrue();
    assertThat(merge.deployment().pullRequest().reconcile()).isFalse();
    assertThat(again.created()).isFalse();
    assertThat(again.deployment().id()).isEqualTo(merge.deployment().id());
  }
}
