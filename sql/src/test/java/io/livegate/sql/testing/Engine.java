package io.livegate.sql.testing;

import io.livegate.core.deploy.AdvanceDeployment;
import io.livegate.core.deploy.CommitStatusPublisher;
import io.livegate.core.deploy.CreateDeployment;
import io.livegate.core.deploy.Execution;
import io.livegate.core.deploy.ExecutionStatus;
import io.livegate.core.deploy.FailurePolicy;
import io.livegate.core.deploy.FlowLauncher;
import io.livegate.core.deploy.MergeLock;
import io.livegate.core.deploy.OutcomeResult;
import io.livegate.core.deploy.RecordOutcome;
import io.livegate.core.deploy.ReleaseReadyExecutions;
import io.livegate.core.deploy.ScanLauncher;
import io.livegate.core.deploy.StartNextDeployment;
import io.livegate.core.pr.DeploymentStatuses;
import io.livegate.core.pr.LockScope;
import io.livegate.core.pr.MergeGate;
import io.livegate.core.pr.StatusLedger;
import io.livegate.core.runner.RunnerKind;
import io.livegate.core.vote.CastVote;
import io.livegate.sql.JdbiDeploymentStore;
import io.livegate.sql.JdbiExecutionStore;
import io.livegate.sql.JdbiVoteStore;
import io.livegate.sql.Metadb;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

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

  /**
   * Releases what is ready and records {@code outcome} for each released execution, wave by wave,
   * until nothing more is released: a deployment driven to its end.
   *
   * @return every outcome's result, in the order recorded
   */
  public List<OutcomeResult> runToEnd(
      long deploymentId, Function<Execution, ExecutionStatus> outcome) {
    List<OutcomeResult> results = new ArrayList<>();
    List<Execution> released;
    while (!(released = release.release(deploymentId)).isEmpty()) {
      for (Execution execution : released) {
        results.add(outcomes.record(execution.id(), outcome.apply(execution)));
      }
    }
    return results;
  }

  /** The trigger's use case over this engine, with the runtime's ports given. */
  public AdvanceDeployment advance(FlowLauncher flows, ScanLauncher scans, MergeLock lock) {
    return new AdvanceDeployment(
        deployments,
        executions,
        release,
        outcomes,
        startNext,
        flows,
        scans,
        lock,
        Clock.systemUTC());
  }

  /**
   * The merge gate over this metadb, posting through {@code github} and recording in the ledger.
   */
  public MergeGate gate(CommitStatusPublisher github, LockScope scope) {
    Clock clock = Clock.systemUTC();
    return new MergeGate(
        deployments,
        executions,
        metadb.pullRequests(),
        metadb.statuses(),
        StatusLedger.recording(github, metadb.statuses(), clock),
        scope,
        "http://livegate.test/status",
        clock);
  }

  /** The final statuses over this metadb, posting through {@code github} and recording them. */
  public DeploymentStatuses deploymentStatuses(CommitStatusPublisher github) {
    return new DeploymentStatuses(
        deployments,
        executions,
        metadb.statuses(),
        StatusLedger.recording(github, metadb.statuses(), Clock.systemUTC()),
        "http://livegate.test/logs");
  }

  public static Engine fresh() {
    return new Engine(EmbeddedMetadb.fresh(), FailurePolicy.ABORT_DEPENDENTS);
  }
}
