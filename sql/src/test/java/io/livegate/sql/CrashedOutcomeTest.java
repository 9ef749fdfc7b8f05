package io.livegate.sql;

import static io.livegate.sql.testing.SyntheticDeployments.unit;
import static io.livegate.sql.testing.TwoMerges.APP;
import static io.livegate.sql.testing.TwoMerges.DNS;
import static io.livegate.sql.testing.TwoMerges.FIRST;
import static io.livegate.sql.testing.TwoMerges.NETWORK;
import static io.livegate.sql.testing.TwoMerges.SECOND;
import static io.livegate.sql.testing.TwoMerges.SOLO;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.livegate.core.deploy.AdvanceDeployment;
import io.livegate.core.deploy.AdvanceDeployment.Advanced;
import io.livegate.core.deploy.DeploymentStatus;
import io.livegate.core.deploy.Execution;
import io.livegate.core.deploy.ExecutionStatus;
import io.livegate.sql.testing.InMemoryFlowLauncher;
import io.livegate.sql.testing.InMemoryMergeLock;
import io.livegate.sql.testing.RecordingScanLauncher;
import io.livegate.sql.testing.TestEngine;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The trigger dies part-way through recording an outcome, and EventBridge delivers the event again.
 * The crash is a PostgreSQL trigger that fails one statement, as a lost connection or a Lambda
 * timeout would end the call there: what the call wrote before in its own transaction stays, what
 * it wrote in the failed one does not. The repeated event must leave the deployment as the
 * uninterrupted call would have, never with executions waiting for ever.
 */
class CrashedOutcomeTest {
  private final TestEngine engine = TestEngine.fresh();
  private final InMemoryFlowLauncher flows = new InMemoryFlowLauncher();
  private final InMemoryMergeLock lock = new InMemoryMergeLock();
  private final AdvanceDeployment advance =
      engine.advance(flows, new RecordingScanLauncher(), lock);

  @Test
  void aCrashWhileAbortingTheDependentsLeavesTheFailureUnrecordedAndTheRepeatAbortsThem() {
    long id = engine.create.create(FIRST).deployment().id();
    advance.created(id);
    crashWhen("executions", "NEW.status = 'aborted'");

    assertThatThrownBy(() -> advance.flowEnded(name(id, DNS), ExecutionStatus.FAILED))
        .hasStackTraceContaining("simulated crash");

    // Nothing half-written: dns is not failed while app, which can no longer run, still waits.
    assertThat(statuses(id))
        .containsExactlyInAnyOrderEntriesOf(
            Map.of(
                DNS, ExecutionStatus.RUNNING,
                NETWORK, ExecutionStatus.RUNNING,
                APP, ExecutionStatus.WAITING));

    recover();
    Advanced repeated = advance.flowEnded(name(id, DNS), ExecutionStatus.FAILED);

    assertThat(repeated.message()).isEqualTo("recorded " + name(id, DNS) + " as failed; aborted 1");
    assertThat(statuses(id))
        .containsExactlyInAnyOrderEntriesOf(
            Map.of(
                DNS, ExecutionStatus.FAILED,
                NETWORK, ExecutionStatus.RUNNING,
                APP, ExecutionStatus.ABORTED));

    advance.flowEnded(name(id, NETWORK), ExecutionStatus.SUCCEEDED);

    assertThat(status(id)).isEqualTo(DeploymentStatus.FAILED);
    assertThat(lock.holder()).isEmpty();
  }

  @Test
  void aRejectionCrashedWhileAbortingIsRecordedWholeByTheRepeat() {
    long id = engine.create.create(FIRST).deployment().id();
    advance.created(id);
    advance.flowEnded(name(id, DNS), ExecutionStatus.SUCCEEDED);
    crashWhen("executions", "NEW.status = 'aborted'");

    assertThatThrownBy(() -> advance.flowEnded(name(id, NETWORK), ExecutionStatus.REJECTED))
        .hasStackTraceContaining("simulated crash");
    assertThat(execution(id, NETWORK).status()).isEqualTo(ExecutionStatus.RUNNING);

    recover();
    Advanced repeated = advance.flowEnded(name(id, NETWORK), ExecutionStatus.REJECTED);

    assertThat(repeated.message()).endsWith("deployment " + id + " rejected");
    assertThat(execution(id, APP).status()).isEqualTo(ExecutionStatus.ABORTED);
    assertThat(status(id)).isEqualTo(DeploymentStatus.REJECTED);
    assertThat(lock.holder()).isEmpty();
  }

  @Test
  void aLastOutcomeWhoseCallDiedBeforeFinishingTheDeploymentIsFinishedByTheRepeat() {
    long first = engine.create.create(FIRST).deployment().id();
    long second = engine.create.create(SECOND).deployment().id();
    advance.created(first);
    advance.flowEnded(name(first, DNS), ExecutionStatus.SUCCEEDED);
    advance.flowEnded(name(first, NETWORK), ExecutionStatus.SUCCEEDED);
    crashWhen("deployments", "NEW.status IN ('succeeded', 'rejected', 'failed')");

    assertThatThrownBy(() -> advance.flowEnded(name(first, APP), ExecutionStatus.SUCCEEDED))
        .hasStackTraceContaining("simulated crash");
    // app's success is recorded; every execution is final, so no other outcome will come.
    assertThat(execution(first, APP).status()).isEqualTo(ExecutionStatus.SUCCEEDED);
    assertThat(status(first)).isEqualTo(DeploymentStatus.RUNNING);

    recover();
    Advanced repeated = advance.flowEnded(name(first, APP), ExecutionStatus.SUCCEEDED);

    assertThat(repeated.message())
        .isEqualTo(
            "execution "
                + name(first, APP)
                + " is already succeeded; settled what the call that recorded it left undone;"
                + " deployment "
                + first
                + " succeeded");
    assertThat(status(first)).isEqualTo(DeploymentStatus.SUCCEEDED);
    assertThat(status(second)).isEqualTo(DeploymentStatus.RUNNING);
    assertThat(repeated.next()).contains(second);
    assertThat(repeated.started()).extracting(Execution::name).containsExactly(name(second, SOLO));
    assertThat(lock.holder()).contains(SECOND.pullRequest());

    Advanced again = advance.flowEnded(name(first, APP), ExecutionStatus.SUCCEEDED);

    assertThat(again.message()).endsWith("changes nothing");
    assertThat(flows.flows()).containsOnlyOnce(name(second, SOLO));
    assertThat(lock.changes())
        .containsExactly("acquired by #1", "released by #1", "acquired by #2");
  }

  @Test
  void aFailureWhoseCallDiedBeforeStartingTheRollbackStartsItOnTheRepeat() {
    long id = engine.create.create(FIRST).deployment().id();
    advance.created(id);
    engine.executions.recordNewResources(
        execution(id, NETWORK).id(), List.of("terraform_data.network"));
    advance.flowEnded(name(id, NETWORK), ExecutionStatus.SUCCEEDED);
    crashWhen("deployments", "NEW.status = 'rolling_back'");

    assertThatThrownBy(() -> advance.flowEnded(name(id, DNS), ExecutionStatus.FAILED))
        .hasStackTraceContaining("simulated crash");
    assertThat(execution(id, DNS).status()).isEqualTo(ExecutionStatus.FAILED);
    assertThat(execution(id, APP).status()).isEqualTo(ExecutionStatus.ABORTED);
    assertThat(status(id)).isEqualTo(DeploymentStatus.RUNNING);
    assertThat(engine.executions.list(id)).noneMatch(Execution::rollback);

    recover();
    Advanced repeated = advance.flowEnded(name(id, DNS), ExecutionStatus.FAILED);

    assertThat(status(id)).isEqualTo(DeploymentStatus.ROLLING_BACK);
    assertThat(repeated.message()).endsWith("rolling back 1");
    assertThat(repeated.started())
        .singleElement()
        .satisfies(
            rollback -> {
              assertThat(rollback.rollback()).isTrue();
              assertThat(rollback.unit()).isEqualTo(NETWORK);
            });
    assertThat(lock.holder()).contains(FIRST.pullRequest());
  }

  /** Makes every update of {@code table} whose new row matches {@code when} fail. */
  private void crashWhen(String table, String when) {
    engine
        .metadb
        .jdbi()
        .useHandle(
            handle -> {
              handle.execute(
                  "CREATE FUNCTION simulated_crash() RETURNS trigger LANGUAGE plpgsql AS"
                      + " $$ BEGIN RAISE EXCEPTION 'simulated crash'; END $$");
              handle.execute(
                  "CREATE TRIGGER simulated_crash BEFORE UPDATE ON "
                      + table
                      + " FOR EACH ROW WHEN ("
                      + when
                      + ") EXECUTE FUNCTION simulated_crash()");
            });
  }

  /** The trigger Lambda runs again, without the crash. */
  private void recover() {
    engine
        .metadb
        .jdbi()
        .useHandle(handle -> handle.execute("DROP FUNCTION simulated_crash() CASCADE"));
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
        .collect(Collectors.toMap(Execution::unit, Execution::status));
  }

  private DeploymentStatus status(long deploymentId) {
    return engine.deployments.find(deploymentId).orElseThrow().status();
  }
}
