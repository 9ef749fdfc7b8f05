package io.livegate.tests.engine;

import static io.livegate.sql.testing.SyntheticDeployments.command;
import static io.livegate.sql.testing.SyntheticDeployments.unit;
import static org.assertj.core.api.Assertions.assertThat;

import io.livegate.core.account.Accounts;
import io.livegate.core.deploy.CommitStatusPublisher.State;
import io.livegate.core.deploy.CreateDeploymentCommand;
import io.livegate.core.deploy.Deployment;
import io.livegate.core.deploy.Execution;
import io.livegate.core.deploy.ExecutionStatus;
import io.livegate.core.deploy.MergedPullRequest;
import io.livegate.core.deploy.StatusTexts;
import io.livegate.core.pr.FinalStatuses;
import io.livegate.core.pr.StatusLedger;
import io.livegate.core.testing.RecordingStatuses;
import io.livegate.core.vote.Vote;
import io.livegate.sql.testing.SyntheticDeployments;
import io.livegate.sql.testing.TestEngine;
import java.time.Clock;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The final statuses the trigger posts, on the real engine: a rejection, the abort it causes and
 * the deployment's end; a status a task already made final is left alone, and settling twice posts
 * nothing new.
 */
class FinalStatusesTest {
  private static final Accounts ACCOUNTS = SyntheticDeployments.accounts(1);

  private final TestEngine engine = TestEngine.fresh();
  private final RecordingStatuses github = new RecordingStatuses();
  private final FinalStatuses statuses = engine.finalStatuses(github);

  private Execution execution(long deploymentId, String unit) {
    return engine.executions.list(deploymentId).stream()
        .filter(e -> e.unit().equals(unit))
        .findFirst()
        .orElseThrow();
  }

  @Test
  void aRejectionItsAbortAndTheDeploymentsEndArePostedOnceAndTaskStatusesAreKept() {
    Deployment deployment =
        engine
            .create
            .create(
                command(
                    1,
                    ACCOUNTS,
                    List.of(
                        unit("account-0/dns", "account-0", 0, List.of()),
                        unit("account-0/solo", "account-0", 0, List.of()),
                        unit("account-0/app", "account-0", 1, List.of("account-0/dns")))))
            .deployment();
    engine.release.release(deployment.id());
    Execution solo = execution(deployment.id(), "account-0/solo");
    Execution dns = execution(deployment.id(), "account-0/dns");
    // terra-run posted solo's final status itself.
    StatusLedger.recording(github, engine.metadb.statuses(), Clock.systemUTC())
        .publish(
            deployment.pullRequest().repository(),
            deployment.pullRequest().mergeCommit(),
            StatusTexts.deployContext("account-0/solo", false),
            State.SUCCESS,
            "applied +1 ~0 -0",
            "");
    engine.outcomes.record(solo.id(), ExecutionStatus.SUCCEEDED);
    engine.castVote.cast(dns.id(), "alice", Vote.Choice.REJECT);
    engine.outcomes.record(dns.id(), ExecutionStatus.REJECTED);

    statuses.settle(deployment.id());
    statuses.settle(deployment.id());

    assertThat(github.all())
        .extracting(s -> s.context() + " " + s.state() + " " + s.description())
        .containsExactly(
            "livegate/deploy: account-0/solo SUCCESS applied +1 ~0 -0",
            "livegate/deploy: account-0/dns FAILURE rejected by the vote",
            "livegate/deploy: account-0/app ERROR aborted: a unit it waits for failed or was rejected",
            "livegate/deploy FAILURE deployment " + deployment.id() + " was rejected");
    assertThat(github.all())
        .allSatisfy(s -> assertThat(s.sha()).isEqualTo(deployment.pullRequest().mergeCommit()));
  }

  @Test
  void anUnfinishedDeploymentGetsOnlyItsFinishedUnitsStatuses() {
    Deployment deployment =
        engine
            .create
            .create(
                command(
                    2,
                    ACCOUNTS,
                    List.of(
                        unit("account-0/dns", "account-0", 0, List.of()),
                        unit("account-0/app", "account-0", 1, List.of("account-0/dns")))))
            .deployment();
    engine.release.release(deployment.id());
    engine.outcomes.record(
        execution(deployment.id(), "account-0/dns").id(), ExecutionStatus.SUCCEEDED);

    statuses.settleExecution(execution(deployment.id(), "account-0/dns").name());

    assertThat(github.all())
        .extracting(s -> s.context() + " " + s.state() + " " + s.description())
        .containsExactly("livegate/deploy: account-0/dns SUCCESS no changes; nothing to apply");
  }

  @Test
  void aDriftReconcileOfTheCommitItsMergeDeployedPostsItsOwnEndAfterTheMerges() {
    CreateDeploymentCommand mergeCommand =
        command(3, ACCOUNTS, List.of(unit("account-0/dns", "account-0", 0, List.of())));
    Deployment merge = engine.create.create(mergeCommand).deployment();
    MergedPullRequest merged = merge.pullRequest();
    Deployment reconcile =
        engine
            .create
            .create(
                new CreateDeploymentCommand(
                    MergedPullRequest.reconcile(
                        merged.repository(), merged.baseRef(), merged.mergeCommit(), "drift-1"),
                    mergeCommand.stack(),
                    ACCOUNTS,
                    mergeCommand.runner()))
            .deployment();
    engine.runToEnd(merge.id(), execution -> ExecutionStatus.SUCCEEDED);
    statuses.settle(merge.id());
    engine.startNext.startNext(merged.repository());
    engine.runToEnd(reconcile.id(), execution -> ExecutionStatus.SUCCEEDED);

    statuses.settle(reconcile.id());
    statuses.settle(reconcile.id());

    assertThat(github.of(StatusTexts.DEPLOY))
        .extracting(s -> s.sha() + " " + s.state() + " " + s.description())
        .containsExactly(
            merged.mergeCommit() + " SUCCESS deployment " + merge.id() + " succeeded",
            merged.mergeCommit() + " SUCCESS deployment " + reconcile.id() + " succeeded");
  }
}
