package io.livegate.sql.testing;

import io.livegate.core.deploy.CastVote;
import io.livegate.core.deploy.CreateDeployment;
import io.livegate.core.deploy.FailurePolicy;
import io.livegate.core.deploy.RecordOutcome;
import io.livegate.core.deploy.ReleaseReadyExecutions;
import io.livegate.core.deploy.StartNextDeployment;
import io.livegate.core.runner.RunnerKind;
import io.livegate.sql.JdbiDeploymentStore;
import io.livegate.sql.JdbiExecutionStore;
import io.livegate.sql.JdbiVoteStore;
import io.livegate.sql.Metadb;
import java.time.Clock;

/** The engine's use cases wired by hand onto one metadb, as each runtime's wiring does. */
public final class Engine {
  public final Metadb metadb;
  public final JdbiDeploymentStore deployments;
  public final JdbiExecutionStore executions;
  public final JdbiVoteStore votes;
  public final StartNextDeployment startNext;
  public final CreateDeployment create;
  public final ReleaseReadyExecutions release;
  public final RecordOutcome outcomes;
  public final CastVote castVote;

  public Engine(Metadb metadb, FailurePolicy policy) {
    Clock clock = Clock.systemUTC();
    this.metadb = metadb;
    this.deployments = metadb.deployments();
    this.executions = metadb.executions();
    this.votes = metadb.votes();
    this.startNext = new StartNextDeployment(deployments, executions, clock);
    this.create = new CreateDeployment(deployments, startNext, clock);
    this.release = new ReleaseReadyExecutions(deployments, executions, clock);
    this.outcomes =
        new RecordOutcome(deployments, executions, startNext, policy, RunnerKind.TERRAFORM, clock);
    this.castVote = new CastVote(votes, clock);
  }

  public static Engine fresh() {
    return new Engine(EmbeddedMetadb.fresh(), FailurePolicy.ABORT_DEPENDENTS);
  }
}
