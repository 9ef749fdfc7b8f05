package io.livegate.tests.engine;

import static io.livegate.sql.testing.SyntheticDeployments.command;
import static io.livegate.sql.testing.SyntheticDeployments.unit;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import io.livegate.core.account.Accounts;
import io.livegate.core.deploy.CreateDeployment;
import io.livegate.core.deploy.CreateDeploymentCommand;
import io.livegate.core.deploy.DeploymentStatus;
import io.livegate.core.deploy.Execution;
import io.livegate.core.deploy.ExecutionStatus;
import io.livegate.core.deploy.FailurePolicy;
import io.livegate.core.deploy.OutcomeResult;
import io.livegate.core.deploy.RollbackExecutions;
import io.livegate.core.runner.RunnerArgv;
import io.livegate.core.vote.Decision;
import io.livegate.core.vote.Vote;
import io.livegate.core.vote.VoteResult;
import io.livegate.core.webhook.DeliveryLog;
import io.livegate.sql.testing.EmbeddedMetadb;
import io.livegate.sql.testing.SyntheticDeployments;
import io.livegate.sql.testing.TestEngine;
import io.livegate.sql.testing.Together;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class IdempotencyTest {
  private static final Accounts ACCOUNTS =
      SyntheticDeployments.accounts(1, SyntheticDeployments.VOTERS, 2, 2);

  /** network and dns first, then app, which depends on both. */
  private static final CreateDeploymentCommand APP =
      command(
          1,
          ACCOUNTS,
          List.of(
              unit("account-0/dns", "account-0", 0, List.of()),
              unit("account-0/network", "account-0", 0, List.of()),
              unit(
                  "account-0/app", "account-0", 1, List.of("account-0/dns", "account-0/network"))));

  private final TestEngine engine = TestEngine.fresh();

  private static Execution byUnit(List<Execution> executions, String unit) {
    return executions.stream().filter(e -> e.unit().equals(unit)).findFirst().orElseThrow();
  }

  private Execution reread(Execution execution) {
    return engine.executions.find(execution.id()).orElseThrow();
  }

  @Test
  void aSuccessRecordedTwiceCountsOnceAndTheSecondSaysItIsAlreadySucceeded() {
    long id = engine.create.create(APP).deployment().id();
    List<Execution> first = engine.release.release(id);
    Execution network = byUnit(first, "account-0/network");

    OutcomeResult recorded = engine.outcomes.record(network.id(), ExecutionStatus.SUCCEEDED);
    Execution afterFirst = reread(network);
    OutcomeResult repeated = engine.outcomes.record(network.id(), ExecutionStatus.SUCCEEDED);

    assertThat(recorded.recorded()).isTrue();
    assertThat(repeated.recorded()).isFalse();
    assertThat(repeated.message())
        .contains(network.name(), "is already succeeded", "changes nothing");
    assertThat(reread(network)).isEqualTo(afterFirst);
    // app waits for dns too: a success counted twice would have released it.
    assertThat(engine.release.release(id)).isEmpty();
    engine.outcomes.record(byUnit(first, "account-0/dns").id(), ExecutionStatus.SUCCEEDED);
    assertThat(engine.release.release(id))
        .extracting(Execution::unit)
        .containsExactly("account-0/app");
  }

  @Test
  void anOutcomeForAnAbortedExecutionChangesNothingAndSaysSo() {
    TestEngine abortAll = new TestEngine(EmbeddedMetadb.fresh(), FailurePolicy.ABORT_ALL);
    long id = abortAll.create.create(APP).deployment().id();
    List<Execution> released = abortAll.release.release(id);
    abortAll.outcomes.record(byUnit(released, "account-0/dns").id(), ExecutionStatus.FAILED);
    Execution network = byUnit(released, "account-0/network");
    Execution aborted = abortAll.executions.find(network.id()).orElseThrow();

    OutcomeResult late = abortAll.outcomes.record(network.id(), ExecutionStatus.SUCCEEDED);

    assertThat(aborted.status()).isEqualTo(ExecutionStatus.ABORTED);
    assertThat(late.recorded()).isFalse();
    assertThat(late.message()).contains(network.name(), "is already aborted", "changes nothing");
    assertThat(late.finished()).isEmpty();
    assertThat(abortAll.executions.find(network.id())).contains(aborted);
    assertThat(abortAll.deployments.find(id).orElseThrow().status())
        .isEqualTo(DeploymentStatus.FAILED);
  }

  @Test
  void storingAMergeAgainAfterItStartedChangesNothing() {
    CreateDeployment.Result first = engine.create.create(APP);
    List<Execution> released = engine.release.release(first.deployment().id());

    CreateDeployment.Result again = engine.create.create(APP);

    assertThat(again.created()).isFalse();
    assertThat(again.started()).isEmpty();
    assertThat(again.deployment().status()).isEqualTo(DeploymentStatus.RUNNING);
    assertThat(engine.executions.list(first.deployment().id()))
        .hasSize(3)
        .filteredOn(e -> e.status() == ExecutionStatus.RUNNING)
        .extracting(Execution::id)
        .containsExactlyInAnyOrderElementsOf(released.stream().map(Execution::id).toList());
  }

  @Test
  void aRollbackStartedTwiceIsAddedOnce() {
    long id = engine.create.create(APP).deployment().id();
    for (Execution execution : engine.release.release(id)) {
      engine.executions.recordNewResources(execution.id(), List.of("terraform_data.this"));
      engine.outcomes.record(execution.id(), ExecutionStatus.FAILED);
    }
    List<Execution> executions = engine.executions.list(id);
    assertThat(executions).filteredOn(Execution::rollback).hasSize(2);

    boolean retried =
        engine.deployments.startRollback(
            id,
            RollbackExecutions.rollbacks(
                executions.stream().filter(e -> !e.rollback()).toList(), RunnerArgv.TERRAFORM),
            Instant.now());

    assertThat(retried).isFalse();
    assertThat(engine.executions.list(id)).isEqualTo(executions);
  }

  @Test
  void theSameVoteTwiceCountsOnce() {
    long id = engine.create.create(APP).deployment().id();
    Execution dns = engine.release.release(id).get(0);

    VoteResult first = engine.castVote.cast(dns.id(), "alice", Vote.Choice.APPROVE);
    VoteResult second = engine.castVote.cast(dns.id(), "alice", Vote.Choice.APPROVE);

    assertThat(first).isEqualTo(new VoteResult.Recorded(null, 1, 0));
    assertThat(second).isEqualTo(new VoteResult.Recorded(null, 1, 0));
    assertThat(engine.votes.votes(dns.id())).extracting(Vote::voter).containsExactly("alice");
    assertThat(engine.votes.history(dns.id())).hasSize(2);
    assertThat(reread(dns).decision()).isNull();
  }

  @Test
  void aVoterWhoChangesTheirVoteBeforeTheDecisionCountsOnceWithTheLatestChoice() {
    long id = engine.create.create(APP).deployment().id();
    Execution dns = engine.release.release(id).get(0);

    engine.castVote.cast(dns.id(), "alice", Vote.Choice.APPROVE);
    VoteResult changed = engine.castVote.cast(dns.id(), "alice", Vote.Choice.REJECT);
    VoteResult bob = engine.castVote.cast(dns.id(), "bob", Vote.Choice.APPROVE);
    VoteResult carol = engine.castVote.cast(dns.id(), "carol", Vote.Choice.APPROVE);

    assertThat(changed).isEqualTo(new VoteResult.Recorded(null, 0, 1));
    assertThat(bob).isEqualTo(new VoteResult.Recorded(null, 1, 1));
    assertThat(carol).isEqualTo(new VoteResult.Recorded(Decision.APPROVED, 2, 1));
    assertThat(engine.votes.votes(dns.id()))
        .extracting(Vote::voter, Vote::choice)
        .containsExactlyInAnyOrder(
            tuple("alice", Vote.Choice.REJECT),
            tuple("bob", Vote.Choice.APPROVE),
            tuple("carol", Vote.Choice.APPROVE));
  }

  @Test
  void aVoteAfterTheDecisionIsAlreadyDecidedAndChangesNothing() {
    long id = engine.create.create(APP).deployment().id();
    Execution dns = engine.release.release(id).get(0);
    engine.castVote.cast(dns.id(), "alice", Vote.Choice.REJECT);
    engine.castVote.cast(dns.id(), "bob", Vote.Choice.REJECT);
    List<Vote> history = engine.votes.history(dns.id());
    Execution decided = reread(dns);

    VoteResult late = engine.castVote.cast(dns.id(), "carol", Vote.Choice.APPROVE);

    assertThat(late).isEqualTo(new VoteResult.AlreadyDecided(Decision.REJECTED));
    assertThat(engine.votes.history(dns.id())).isEqualTo(history);
    assertThat(reread(dns)).isEqualTo(decided);
  }

  @Test
  void aVoteFromSomeoneNotListedIsRefusedAndStoresNothing() {
    long id = engine.create.create(APP).deployment().id();
    Execution dns = engine.release.release(id).get(0);

    VoteResult mallory = engine.castVote.cast(dns.id(), "mallory", Vote.Choice.APPROVE);

    assertThat(mallory).isEqualTo(new VoteResult.NotAVoter("mallory"));
    assertThat(engine.votes.votes(dns.id())).isEmpty();
    assertThat(engine.votes.history(dns.id())).isEmpty();
  }

  @Test
  void aVoteOnAnExecutionStillWaitingIsNotOpenAndStoresNothing() {
    long id = engine.create.create(APP).deployment().id();
    engine.release.release(id);
    Execution app = byUnit(engine.executions.list(id), "account-0/app");

    VoteResult early = engine.castVote.cast(app.id(), "alice", Vote.Choice.APPROVE);

    assertThat(early).isInstanceOf(VoteResult.NotOpen.class);
    assertThat(((VoteResult.NotOpen) early).reason()).contains(app.name(), "waiting");
    assertThat(engine.votes.history(app.id())).isEmpty();
  }

  @Test
  void aRepeatedWebhookDeliveryIsNotAFirstArrival() {
    DeliveryLog deliveries = engine.metadb.deliveries();

    assertThat(deliveries.firstArrival("72d3162e-cc78-11e3", "pull_request", Instant.now()))
        .isTrue();
    assertThat(deliveries.firstArrival("72d3162e-cc78-11e3", "pull_request", Instant.now()))
        .isFalse();
    assertThat(deliveries.firstArrival("72d3162e-cc78-11e4", "pull_request", Instant.now()))
        .isTrue();
  }

  @Test
  void aDeliveryArrivingOnTenThreadsAtOnceIsFirstExactlyOnce() {
    DeliveryLog deliveries = engine.metadb.deliveries();

    List<Boolean> first =
        Together.run(
            10, thread -> deliveries.firstArrival("9f1c-racing", "pull_request", Instant.now()));

    assertThat(first).containsOnlyOnce(true).hasSize(10);
  }
}
