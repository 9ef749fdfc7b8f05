package io.livegate.tests.engine;

import static io.livegate.sql.testing.SyntheticDeployments.command;
import static io.livegate.sql.testing.SyntheticDeployments.unit;
import static io.livegate.sql.testing.TwoMerges.APP;
import static io.livegate.sql.testing.TwoMerges.DNS;
import static io.livegate.sql.testing.TwoMerges.FIRST;
import static io.livegate.sql.testing.TwoMerges.NETWORK;
import static io.livegate.sql.testing.TwoMerges.SECOND;
import static io.livegate.sql.testing.TwoMerges.SOLO;
import static org.assertj.core.api.Assertions.assertThat;

import io.livegate.core.deploy.AdvanceDeployment;
import io.livegate.core.deploy.AdvanceDeployment.Advanced;
import io.livegate.core.deploy.CreateDeploymentCommand;
import io.livegate.core.deploy.DeploymentStatus;
import io.livegate.core.deploy.Execution;
import io.livegate.core.deploy.ExecutionStatus;
import io.livegate.core.deploy.FailurePolicy;
import io.livegate.sql.testing.EmbeddedMetadb;
import io.livegate.sql.testing.InMemoryFlowLauncher;
import io.livegate.sql.testing.InMemoryMergeLock;
import io.livegate.sql.testing.RecordingScanLauncher;
import io.livegate.sql.testing.TestEngine;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The trigger's use case over a real metadb. The flow launcher and the merge lock are in-memory
 * fakes that keep their ports' contracts (one flow per execution name, one lock holder per
 * repository and merge commit): the use case needs nothing more of Step Functions or SSM.
 */
class AdvanceDeploymentTest {
  private final InMemoryFlowLauncher flows = new InMemoryFlowLauncher();
  private final InMemoryMergeLock lock = new InMemoryMergeLock();
  private final RecordingScanLauncher scans = new RecordingScanLauncher();
  private TestEngine engine = TestEngine.fresh();
  private AdvanceDeployment advance = advanceOn(engine);

  private AdvanceDeployment advanceOn(TestEngine on) {
    return on.advance(flows, scans, lock);
  }

  private void usePolicy(FailurePolicy policy) {
    engine = new TestEngine(EmbeddedMetadb.fresh(), policy);
    advance = advanceOn(engine);
  }

  private long store(CreateDeploymentCommand command) {
    return engine.create.create(command).deployment().id();
  }

  private Execution execution(long deploymentId, String unit) {
    return engine.executions.list(deploymentId).stream()
        .filter(e -> e.unit().equals(unit) && !e.rollback())
        .findFirst()
        .orElseThrow();
  }

  private String name(long deploymentId, String unit) {
    return execution(deploymentId, unit).name();
  }

  private Map<String, ExecutionStatus> statuses(long deploymentId) {
    return engine.executions.list(deploymentId).stream()
        .collect(
            Collectors.toMap(
                e -> e.unit() + (e.rollback() ? " (rollback)" : ""), Execution::status));
  }

  private DeploymentStatus status(long deploymentId) {
    return engine.deployments.find(deploymentId).orElseThrow().status();
  }

  @Test
  void createdStartsExactlyTheReadyFlowsAndTakesTheLock() {
    long id = store(FIRST);

    Advanced advanced = advance.created(id);

    assertThat(advanced.started()).extracting(Execution::unit).containsExactly(DNS, NETWORK);
    assertThat(advanced.message()).isEqualTo("deployment " + id + ": started 2 flows");
    assertThat(flows.flows()).containsExactly(name(id, DNS), name(id, NETWORK));
    assertThat(statuses(id))
        .containsExactlyInAnyOrderEntriesOf(
            Map.of(
                DNS, ExecutionStatus.RUNNING,
                NETWORK, ExecutionStatus.RUNNING,
                APP, ExecutionStatus.WAITING));
    assertThat(lock.holder()).contains(FIRST.pullRequest());
  }

  @Test
  void aStartedDeploymentWithoutItsStackGetsItsScanLaunchedAndThenItsFlows() {
    long id = engine.deployments.enqueue(FIRST.pullRequest(), Instant.now()).deployment().id();
    engine.startNext.startNext(FIRST.pullRequest().repository());

    Advanced launched = advance.created(id);

    assertThat(launched.message())
        .isEqualTo("deployment " + id + " has no stored stack yet; launched its scan");
    assertThat(scans.launched()).containsExactly(id);
    assertThat(lock.holder()).contains(FIRST.pullRequest());
    assertThat(flows.flows()).isEmpty();

    assertThat(engine.create.create(FIRST).deployment().id()).isEqualTo(id);
    advance.created(id);

    assertThat(flows.flows()).hasSize(2);
    assertThat(scans.launched()).containsExactly(id);
  }

  @Test
  void retryScanLaunchesTheScanOfTheLockHolderWithoutItsStackAndRefusesEveryOtherDeployment() {
    long stuck = engine.deployments.enqueue(FIRST.pullRequest(), Instant.now()).deployment().id();
    engine.startNext.startNext(FIRST.pullRequest().repository());
    long queued = engine.deployments.enqueue(SECOND.pullRequest(), Instant.now()).deployment().id();

    assertThat(advance.retryScan(stuck).message())
        .isEqualTo("launched the scan of deployment " + stuck + " again");
    assertThat(scans.launched()).containsExactly(stuck);
    assertThat(lock.holder()).contains(FIRST.pullRequest());

    assertThat(advance.retryScan(queued).message())
        .isEqualTo("deployment " + queued + " is queued; it is scanned when it takes the lock");
    assertThat(advance.retryScan(999).message()).isEqualTo("there is no deployment 999");
    assertThat(engine.create.create(FIRST).deployment().id()).isEqualTo(stuck);
    assertThat(advance.retryScan(stuck).message())
        .isEqualTo(
            "deployment " + stuck + " has its stack stored (running); there is no scan to retry");
    assertThat(scans.launched()).containsExactly(stuck);
  }

  @Test
  void anOperatorsAbortStopsTheRunningFlowsFailsTheDeploymentAndHandsTheLockOn() {
    long id = store(FIRST);
    advance.created(id);
    long second = engine.deployments.enqueue(SECOND.pullRequest(), Instant.now()).deployment().id();

    Advanced aborted = advance.abort(id, "the account is frozen");

    assertThat(aborted.message())
        .isEqualTo(
            "deployment "
                + id
                + " aborted by an operator (the account is frozen): 3 executions aborted, failed;"
                + " started deployment "
                + second);
    String cause = ": aborted by an operator: the account is frozen";
    assertThat(flows.stopped())
        .containsExactlyInAnyOrder(name(id, DNS) + cause, name(id, NETWORK) + cause);
    assertThat(statuses(id).values()).containsOnly(ExecutionStatus.ABORTED);
    assertThat(status(id)).isEqualTo(DeploymentStatus.FAILED);
    assertThat(lock.holder()).contains(SECOND.pullRequest());
    assertThat(advance.abort(id, "again").message())
        .isEqualTo(
            "deployment "
                + id
                + " is failed; only a running or rolling-back deployment can be aborted");
  }

  @Test
  void releasingTheLockIsRefusedWhileADeploymentHoldsItOrNoneEverFinished() {
    assertThat(advance.releaseLock("acme/other").message())
        .isEqualTo("no deployment of acme/other has finished; there is no lock to release");
    long id = store(FIRST);
    advance.created(id);
    String repository = FIRST.pullRequest().repository();

    assertThat(advance.releaseLock(repository).message())
        .isEqualTo(
            "deployment "
                + id
                + " (running) holds the lock of "
                + repository
                + ": run livegate admin abort "
                + id
                + " instead");
    assertThat(lock.holder()).contains(FIRST.pullRequest());
  }

  @Test
  void aSuccessStartsADependentOnlyOnceAllItsDependenciesSucceeded() {
    long id = store(FIRST);
    advance.created(id);

    Advanced dns = advance.flowEnded(name(id, DNS), ExecutionStatus.SUCCEEDED);
    Advanced network = advance.flowEnded(name(id, NETWORK), ExecutionStatus.SUCCEEDED);

    assertThat(dns.started()).isEmpty();
    assertThat(dns.message()).startsWith("recorded " + name(id, DNS) + " as succeeded");
    assertThat(network.started()).extracting(Execution::unit).containsExactly(APP);
    assertThat(flows.flows()).containsExactly(name(id, DNS), name(id, NETWORK), name(id, APP));
    assertThat(execution(id, APP).status()).isEqualTo(ExecutionStatus.RUNNING);
    assertThat(flows.stopped()).isEmpty();
    assertThat(lock.holder()).contains(FIRST.pullRequest());
  }

  @Test
  void aRejectionAbortsItsDependentsAndLetsAnIndependentFlowRunOn() {
    long id = store(FIRST);
    advance.created(id);

    Advanced rejected = advance.flowEnded(name(id, NETWORK), ExecutionStatus.REJECTED);

    assertThat(rejected.started()).isEmpty();
    assertThat(rejected.stopped()).isEmpty();
    assertThat(flows.stopped()).isEmpty();
    assertThat(statuses(id))
        .containsExactlyInAnyOrderEntriesOf(
            Map.of(
                DNS, ExecutionStatus.RUNNING,
                NETWORK, ExecutionStatus.REJECTED,
                APP, ExecutionStatus.ABORTED));
    assertThat(lock.holder()).contains(FIRST.pullRequest());

    Advanced last = advance.flowEnded(name(id, DNS), ExecutionStatus.SUCCEEDED);

    assertThat(status(id)).isEqualTo(DeploymentStatus.REJECTED);
    assertThat(last.message()).endsWith("deployment " + id + " rejected");
    assertThat(last.started()).isEmpty();
    assertThat(last.next()).isEmpty();
    assertThat(lock.holder()).isEmpty();
    assertThat(flows.flows()).containsExactly(name(id, DNS), name(id, NETWORK));
  }

  @Test
  void aFailureUnderAbortAllStopsTheRunningFlowsAndALateEventOfAStoppedFlowChangesNothing() {
    usePolicy(FailurePolicy.ABORT_ALL);
    long id = store(FIRST);
    advance.created(id);

    Advanced failed = advance.flowEnded(name(id, DNS), ExecutionStatus.FAILED);

    assertThat(failed.stopped()).extracting(Execution::unit).containsExactly(NETWORK);
    assertThat(flows.stopped())
        .hasSize(1)
        .first()
        .asString()
        .startsWith(name(id, NETWORK) + ": aborted: recorded " + name(id, DNS) + " as failed");
    assertThat(statuses(id))
        .containsExactlyInAnyOrderEntriesOf(
            Map.of(
                DNS, ExecutionStatus.FAILED,
                NETWORK, ExecutionStatus.ABORTED,
                APP, ExecutionStatus.ABORTED));
    assertThat(status(id)).isEqualTo(DeploymentStatus.FAILED);
    assertThat(lock.holder()).isEmpty();

    // Stopping network's flow makes Step Functions send ABORTED, which the trigger reads as failed.
    Advanced late = advance.flowEnded(name(id, NETWORK), ExecutionStatus.FAILED);

    assertThat(late.message()).contains("is already aborted", "changes nothing");
    assertThat(late.started()).isEmpty();
    assertThat(late.stopped()).isEmpty();
    assertThat(execution(id, NETWORK).status()).isEqualTo(ExecutionStatus.ABORTED);
    assertThat(status(id)).isEqualTo(DeploymentStatus.FAILED);
    assertThat(flows.flows()).containsExactly(name(id, DNS), name(id, NETWORK));
    assertThat(lock.holder()).isEmpty();
  }

  @Test
  void aFailureAfterNewResourcesStartsTheRollbackFlowsAndItsEndReleasesTheLock() {
    long id = store(FIRST);
    advance.created(id);
    engine.executions.recordNewResources(
        execution(id, NETWORK).id(), List.of("terraform_data.network"));
    advance.flowEnded(name(id, NETWORK), ExecutionStatus.SUCCEEDED);

    Advanced failed = advance.flowEnded(name(id, DNS), ExecutionStatus.FAILED);

    assertThat(status(id)).isEqualTo(DeploymentStatus.ROLLING_BACK);
    assertThat(failed.started()).hasSize(1);
    Execution rollback = failed.started().get(0);
    assertThat(rollback.rollback()).isTrue();
    assertThat(rollback.unit()).isEqualTo(NETWORK);
    assertThat(flows.flows()).endsWith(rollback.name());
    assertThat(lock.holder()).contains(FIRST.pullRequest());

    Advanced undone = advance.flowEnded(rollback.name(), ExecutionStatus.SUCCEEDED);

    assertThat(undone.message()).endsWith("deployment " + id + " failed");
    assertThat(status(id)).isEqualTo(DeploymentStatus.FAILED);
    assertThat(lock.holder()).isEmpty();
  }

  @Test
  void theLastOutcomeHandsTheLockToTheNextQueuedDeploymentAndStartsItsFlows() {
    long first = store(FIRST);
    long second = store(SECOND);
    advance.created(first);
    Advanced queued = advance.created(second);
    advance.flowEnded(name(first, DNS), ExecutionStatus.SUCCEEDED);
    advance.flowEnded(name(first, NETWORK), ExecutionStatus.SUCCEEDED);
    assertThat(flows.flows()).doesNotContain(name(second, SOLO));

    Advanced last = advance.flowEnded(name(first, APP), ExecutionStatus.SUCCEEDED);

    assertThat(queued.started()).isEmpty();
    assertThat(status(first)).isEqualTo(DeploymentStatus.SUCCEEDED);
    assertThat(status(second)).isEqualTo(DeploymentStatus.RUNNING);
    assertThat(last.next()).contains(second);
    assertThat(last.started()).extracting(Execution::name).containsExactly(name(second, SOLO));
    assertThat(flows.flows()).endsWith(name(second, SOLO));
    assertThat(lock.holder()).contains(SECOND.pullRequest());
    assertThat(lock.changes())
        .containsExactly("acquired by #1", "released by #1", "acquired by #2");
  }

  @Test
  void createdDoesNothingForAQueuedAFinishedOrAnUnknownDeployment() {
    long first = store(FIRST);
    long second = store(SECOND);
    advance.created(first);

    Advanced queued = advance.created(second);

    assertThat(queued.message())
        .isEqualTo(
            "deployment " + second + " is queued behind an unfinished one; nothing to start");
    assertThat(queued.started()).isEmpty();
    assertThat(execution(second, SOLO).status()).isEqualTo(ExecutionStatus.WAITING);
    assertThat(lock.holder()).contains(FIRST.pullRequest());

    for (String unit : List.of(DNS, NETWORK, APP)) {
      advance.flowEnded(name(first, unit), ExecutionStatus.REJECTED);
    }
    advance.flowEnded(name(second, SOLO), ExecutionStatus.SUCCEEDED);
    List<String> created = flows.flows();
    List<String> lockChanges = lock.changes();

    Advanced finished = advance.created(first);
    Advanced unknown = advance.created(999_999);

    assertThat(finished.message())
        .isEqualTo("deployment " + first + " is rejected; nothing to start");
    assertThat(unknown.message()).isEqualTo("there is no deployment 999999");
    assertThat(finished.started()).isEmpty();
    assertThat(unknown.started()).isEmpty();
    assertThat(flows.flows()).isEqualTo(created);
    assertThat(lock.changes()).isEqualTo(lockChanges);
    assertThat(lock.holder()).isEmpty();
  }

  @Test
  void aRepeatedEventChangesNoStatusAndItsRestartsCreateNoSecondFlow() {
    long id = store(FIRST);
    advance.created(id);
    advance.flowEnded(name(id, DNS), ExecutionStatus.SUCCEEDED);
    List<Execution> before = engine.executions.list(id);
    List<String> created = flows.flows();

    Advanced repeated = advance.flowEnded(name(id, DNS), ExecutionStatus.SUCCEEDED);

    assertThat(repeated.message())
        .isEqualTo(
            "execution "
                + name(id, DNS)
                + " is already succeeded; recording it as succeeded changes nothing");
    assertThat(engine.executions.list(id)).isEqualTo(before);
    // Healing restarts what runs; the launcher finds network's flow and creates nothing.
    assertThat(repeated.started()).extracting(Execution::unit).containsExactly(NETWORK);
    assertThat(flows.startCalls()).endsWith(name(id, NETWORK));
    assertThat(flows.flows()).isEqualTo(created);
    assertThat(repeated.stopped()).isEmpty();
    assertThat(lock.holder()).contains(FIRST.pullRequest());
  }

  @Test
  void executionsClaimedByACallThatDiedBeforeStartingTheirFlowsAreStartedByTheRetry() {
    long id = store(FIRST);
    // created() claimed dns and network, then died before starting a flow.
    engine.release.release(id);
    assertThat(flows.flows()).isEmpty();

    Advanced retried = advance.created(id);

    assertThat(retried.started()).extracting(Execution::unit).containsExactly(DNS, NETWORK);
    assertThat(flows.flows()).containsExactly(name(id, DNS), name(id, NETWORK));

    // flowEnded(network) recorded both successes and claimed app, then died before its start.
    engine.outcomes.record(execution(id, DNS).id(), ExecutionStatus.SUCCEEDED);
    engine.outcomes.record(execution(id, NETWORK).id(), ExecutionStatus.SUCCEEDED);
    engine.release.release(id);
    assertThat(execution(id, APP).status()).isEqualTo(ExecutionStatus.RUNNING);
    Map<String, ExecutionStatus> claimed = statuses(id);

    Advanced repeated = advance.flowEnded(name(id, NETWORK), ExecutionStatus.SUCCEEDED);

    assertThat(repeated.started()).extracting(Execution::unit).containsExactly(APP);
    assertThat(flows.flows()).containsExactly(name(id, DNS), name(id, NETWORK), name(id, APP));
    assertThat(statuses(id)).isEqualTo(claimed);
  }

  @Test
  void aLastOutcomeRecordedByACallThatDiedIsHandedOnByTheRepeatedEvent() {
    long first = store(FIRST);
    long second = store(SECOND);
    advance.created(first);
    advance.flowEnded(name(first, DNS), ExecutionStatus.SUCCEEDED);
    advance.flowEnded(name(first, NETWORK), ExecutionStatus.SUCCEEDED);
    // The call for app's end recorded it, which finished the deployment and started the next one
    // in the metadb, then died before it moved the lock or started a flow.
    engine.outcomes.record(execution(first, APP).id(), ExecutionStatus.SUCCEEDED);
    assertThat(status(second)).isEqualTo(DeploymentStatus.RUNNING);
    assertThat(lock.holder()).contains(FIRST.pullRequest());

    Advanced repeated = advance.flowEnded(name(first, APP), ExecutionStatus.SUCCEEDED);

    assertThat(repeated.next()).contains(second);
    assertThat(repeated.started()).extracting(Execution::name).containsExactly(name(second, SOLO));
    assertThat(flows.flows()).endsWith(name(second, SOLO));
    assertThat(lock.holder()).contains(SECOND.pullRequest());
    assertThat(status(first)).isEqualTo(DeploymentStatus.SUCCEEDED);

    Advanced again = advance.flowEnded(name(first, APP), ExecutionStatus.SUCCEEDED);

    assertThat(again.next()).contains(second);
    assertThat(flows.flows()).containsOnlyOnce(name(second, SOLO));
    assertThat(lock.changes())
        .containsExactly("acquired by #1", "released by #1", "acquired by #2");
  }

  @Test
  void aDeploymentFinishedByACallThatDiedBeforeStartingTheNextIsFollowedByTheRepeatedEvent() {
    long first = store(FIRST);
    long second = store(SECOND);
    advance.created(first);
    advance.flowEnded(name(first, DNS), ExecutionStatus.SUCCEEDED);
    advance.flowEnded(name(first, NETWORK), ExecutionStatus.SUCCEEDED);
    // The call for app's end got as far as RecordOutcome does before it starts the next
    // deployment: app succeeded and the deployment finished, each in its own statement.
    Instant now = Instant.now();
    engine.executions.transition(
        execution(first, APP).id(), ExecutionStatus.RUNNING, ExecutionStatus.SUCCEEDED, now);
    engine.deployments.transition(first, DeploymentStatus.RUNNING, DeploymentStatus.SUCCEEDED, now);
    assertThat(status(second)).isEqualTo(DeploymentStatus.QUEUED);

    Advanced repeated = advance.flowEnded(name(first, APP), ExecutionStatus.SUCCEEDED);

    assertThat(status(second)).isEqualTo(DeploymentStatus.RUNNING);
    assertThat(repeated.next()).contains(second);
    assertThat(repeated.started()).extracting(Execution::name).containsExactly(name(second, SOLO));
    assertThat(lock.holder()).contains(SECOND.pullRequest());
  }

  @Test
  void anEventForAnUnknownExecutionNameIsIgnored() {
    long id = store(FIRST);
    advance.created(id);
    List<Execution> before = engine.executions.list(id);

    Advanced ignored =
        advance.flowEnded("d999-account-0-nowhere-000000000000", ExecutionStatus.FAILED);

    assertThat(ignored.message())
        .isEqualTo("no execution is named d999-account-0-nowhere-000000000000; ignored");
    assertThat(ignored.started()).isEmpty();
    assertThat(ignored.stopped()).isEmpty();
    assertThat(engine.executions.list(id)).isEqualTo(before);
    assertThat(flows.stopped()).isEmpty();
    assertThat(lock.holder()).contains(FIRST.pullRequest());
  }
}
