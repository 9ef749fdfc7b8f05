package io.livegate.sql.testing;

import io.livegate.core.deploy.AdvanceDeployment;
import io.livegate.core.deploy.CommitStatusPublisher;
import io.livegate.core.deploy.CreateDeployment;
import io.livegate.core.deploy.Execution;
import io.livegate.core.deploy.ExecutionStatus;
import io.livegate.core.deploy.FailurePolicy;
import io.livegate.core.deploy.FlowLauncher;
import io.livegate.core.deploy.MergeLock;
import io.livegate.core.deploy.OperatorCommands;
import io.livegate.core.deploy.OutcomeResult;
import io.livegate.core.deploy.RecordOutcome;
import io.livegate.core.deploy.ReleaseReadyExecutions;
import io.livegate.core.deploy.ScanLauncher;
import io.livegate.core.deploy.StartNextDeployment;
import io.livegate.core.engine.Engine;
import io.livegate.core.pr.FinalStatuses;
import io.livegate.core.pr.LockScope;
import io.livegate.core.pr.MergeGate;
import io.livegate.core.runner.RunnerArgv;
import io.livegate.core.vote.CastVote;
import io.livegate.sql.JdbiDeploymentStore;
import io.livegate.sql.JdbiExecutionStore;
import io.livegate.sql.JdbiVoteStore;
import io.livegate.sql.Metadb;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * The engine on one metadb, built by {@link Engine#build} as every runtime builds it, with the
 * runtime's ports chosen per test.
 */
public final class TestEngine {
  public static final String STATUS_URL = "http://livegate.test/status";
  private static final CommitStatusPublisher POSTS_NOTHING =
      (repository, sha, context, state, description, targetUrl) -> {};

  public final Metadb metadb;
  public final JdbiDeploymentStore deployments;
  public final JdbiExecutionStore executions;
  public final JdbiVoteStore votes;
  public final StartNextDeployment startNext;
  public final CreateDeployment create;
  public final ReleaseReadyExecutions release;
  public final RecordOutcome outcomes;
  public final CastVote castVote;
  private final FailurePolicy policy;

  public TestEngine(Metadb metadb, FailurePolicy policy) {
    this.metadb = metadb;
    this.policy = policy;
    this.deployments = metadb.deployments();
    this.executions = metadb.executions();
    this.votes = metadb.votes();
    Engine engine = engine(POSTS_NOTHING, LockScope.REPO);
    this.startNext = engine.startNext();
    this.create = engine.create();
    this.release = engine.release();
    this.outcomes = engine.outcomes();
    this.castVote = engine.castVote();
  }

  /** The engine over this metadb with the given runtime ports, as the local runtime builds it. */
  public Engine engine(
      FlowLauncher flows,
      ScanLauncher scans,
      MergeLock lock,
      CommitStatusPublisher github,
      LockScope scope) {
    return engine(flows, scans, lock, github, scope, OperatorCommands.LOCAL);
  }

  /** The engine over this metadb with the given runtime ports and operator commands. */
  public Engine engine(
      FlowLauncher flows,
      ScanLauncher scans,
      MergeLock lock,
      CommitStatusPublisher github,
      LockScope scope,
      OperatorCommands operator) {
    return Engine.build(
        new Engine.Stores(deployments, executions, votes, metadb.pullRequests(), metadb.statuses()),
        new Engine.Runtime(flows, scans, lock, github),
        new Engine.Settings(
            policy, RunnerArgv.TERRAFORM, scope, STATUS_URL, operator, Clock.systemUTC()));
  }

  /** The engine with recorders for the ports a test does not look at. */
  private Engine engine(CommitStatusPublisher github, LockScope scope) {
    return engine(
        new InMemoryFlowLauncher(),
        new RecordingScanLauncher(),
        new InMemoryMergeLock(),
        github,
        scope);
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
    return engine(flows, scans, lock, POSTS_NOTHING, LockScope.REPO).advance();
  }

  /** The merge gate over this metadb, posting through {@code github} and recording them. */
  public MergeGate gate(CommitStatusPublisher github, LockScope scope) {
    return engine(github, scope).gate();
  }

  /** The final statuses over this metadb, posting through {@code github} and recording them. */
  public FinalStatuses finalStatuses(CommitStatusPublisher github) {
    return engine(github, LockScope.REPO).finalStatuses();
  }

  public static TestEngine fresh() {
    return new TestEngine(EmbeddedMetadb.fresh(), FailurePolicy.ABORT_DEPENDENTS);
  }
}
