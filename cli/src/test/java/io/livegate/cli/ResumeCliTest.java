package io.livegate.cli;

import static io.livegate.sql.testing.SyntheticDeployments.unit;
import static org.assertj.core.api.Assertions.assertThat;

import io.livegate.cli.local.LocalWiring;
import io.livegate.core.account.Accounts;
import io.livegate.core.deploy.DeploymentStatus;
import io.livegate.core.deploy.Execution;
import io.livegate.core.deploy.ExecutionStatus;
import io.livegate.core.deploy.FailurePolicy;
import io.livegate.core.deploy.FlowLauncher;
import io.livegate.core.engine.Engine;
import io.livegate.core.pr.LockScope;
import io.livegate.core.runner.RunnerArgv;
import io.livegate.sql.testing.InMemoryFlowLauncher;
import io.livegate.sql.testing.InMemoryMergeLock;
import io.livegate.sql.testing.RecordingScanLauncher;
import io.livegate.sql.testing.SyntheticDeployments;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code livegate resume} when there is nothing for it to do. */
class ResumeCliTest {
  @TempDir Path state;

  @Test
  void resumeWithNothingRunningSaysSoAndSucceeds() {
    new LocalWiring(state).close();
    CliRun resume =
        CliRun.withPath("resume", "--state-dir", state.toString(), "--runner", "terraform");

    assertThat(resume.exitCode()).as(resume.toString()).isZero();
    assertThat(resume.out()).contains("nothing to resume: no deployment in " + state);
  }

  @Test
  void resumeAfterAFailedRollbackSaysItIsTheOperatorsTurn() {
    long id;
    try (LocalWiring wiring = new LocalWiring(state)) {
      id = failTheRollback(wiring);
    }

    CliRun resume =
        CliRun.withPath("resume", "--state-dir", state.toString(), "--runner", "terraform");

    assertThat(resume.exitCode()).as(resume.toString()).isZero();
    assertThat(resume.out())
        .contains(
            "nothing to resume: no deployment in "
                + state
                + " is running; deployment "
                + id
                + " is rollback_failed; a rollback failed, so the lock stays held");
  }

  @Test
  void resumeStartsADeploymentThatWasQueuedWhenTheRunStoppedBeforeTakingTheLock() {
    long id;
    try (LocalWiring wiring = new LocalWiring(state)) {
      // What a deploy killed between queueing its deployment and starting it leaves behind.
      id =
          wiring
              .deployments
              .create(
                  SyntheticDeployments.command(1, SyntheticDeployments.accounts(1), List.of())
                      .pullRequest(),
                  SyntheticDeployments.command(1, SyntheticDeployments.accounts(1), List.of())
                      .stack()
                      .base(),
                  List.of(),
                  Map.of(),
                  Instant.now())
              .deployment()
              .id();
      assertThat(wiring.deployments.find(id).orElseThrow().status())
          .isEqualTo(DeploymentStatus.QUEUED);
    }

    CliRun resume =
        CliRun.withPath("resume", "--state-dir", state.toString(), "--runner", "terraform");

    assertThat(resume.exitCode()).as(resume.toString()).isZero();
    try (LocalWiring wiring = new LocalWiring(state)) {
      assertThat(wiring.deployments.find(id).orElseThrow().status())
          .isEqualTo(DeploymentStatus.SUCCEEDED);
    }
  }

  /**
   * A one-unit deployment whose apply fails after creating a resource, and so does its rollback.
   */
  static long failTheRollback(LocalWiring wiring) {
    FlowLauncher flows = new InMemoryFlowLauncher();
    Engine engine =
        wiring.engine(
            new Engine.Runtime(
                flows,
                new RecordingScanLauncher(),
                new InMemoryMergeLock(),
                (repository, sha, context, state, description, targetUrl) -> {}),
            FailurePolicy.ABORT_DEPENDENTS,
            RunnerArgv.TERRAFORM,
            LockScope.REPO,
            "");
    Accounts accounts = SyntheticDeployments.accounts(1);
    long id =
        engine
            .create()
            .create(
                SyntheticDeployments.command(
                    1, accounts, List.of(unit("app", "account-0", 0, List.of()))))
            .deployment()
            .id();
    List<Execution> released;
    while (!(released = engine.release().release(id)).isEmpty()) {
      for (Execution execution : released) {
        wiring.executions.recordNewResources(execution.id(), List.of("terraform_data.app"));
        engine.outcomes().record(execution.id(), ExecutionStatus.FAILED);
      }
    }
    assertThat(wiring.deployments.find(id).orElseThrow().status())
        .isEqualTo(DeploymentStatus.ROLLBACK_FAILED);
    return id;
  }
}
