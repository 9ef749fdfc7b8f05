package io.livegate.core.engine;

import io.livegate.core.admin.RunAdminCommand;
import io.livegate.core.deploy.AdvanceDeployment;
import io.livegate.core.deploy.CommitStatusPublisher;
import io.livegate.core.deploy.CreateDeployment;
import io.livegate.core.deploy.DeploymentStore;
import io.livegate.core.deploy.Execution;
import io.livegate.core.deploy.ExecutionStore;
import io.livegate.core.deploy.FailurePolicy;
import io.livegate.core.deploy.FlowLauncher;
import io.livegate.core.deploy.MergeLock;
import io.livegate.core.deploy.MergedPullRequest;
import io.livegate.core.deploy.OperatorCommands;
import io.livegate.core.deploy.RecordOutcome;
import io.livegate.core.deploy.ReleaseReadyExecutions;
import io.livegate.core.deploy.ScanLauncher;
import io.livegate.core.deploy.StartNextDeployment;
import io.livegate.core.pr.FinalStatuses;
import io.livegate.core.pr.LockScope;
import io.livegate.core.pr.MergeGate;
import io.livegate.core.pr.OpenPullRequests;
import io.livegate.core.pr.StatusLedger;
import io.livegate.core.runner.RunnerArgv;
import io.livegate.core.vote.CastVote;
import io.livegate.core.vote.VoteStore;
import java.time.Clock;

/**
 * The deployment engine, built in one place for every runtime. The queue advances and the merge
 * lock passes on only through {@link #advance()}: the trigger calls it on AWS, the local executor
 * calls it when a flow ends, and both hand the lock to the next merge the same way.
 */
public final class Engine {
  /** Where the engine keeps its state: the metadb's stores. */
  public record Stores(
      DeploymentStore deployments,
      ExecutionStore executions,
      VoteStore votes,
      OpenPullRequests pullRequests,
      StatusLedger ledger) {}

  /**
   * How a runtime runs what the engine decides: flows, scans, the outward merge lock, and commit
   * statuses on GitHub (or the log when there is no token).
   */
  public record Runtime(
      FlowLauncher flows, ScanLauncher scans, MergeLock lock, CommitStatusPublisher github) {
    /**
     * The runtime of an entry point that only stores deployments (create-deploy-stack) and leaves
     * starting flows, scans and the lock to the trigger: any such call is a wiring bug and fails.
     */
    public static Runtime storingOnly(CommitStatusPublisher github) {
      return new Runtime(
          new FlowLauncher() {
            @Override
            public void start(Execution execution) {
              throw new IllegalStateException("this entry point starts no flows");
            }

            @Override
            public void stop(Execution execution, String cause) {
              throw new IllegalStateException("this entry point stops no flows");
            }
          },
          deployment -> {
            throw new IllegalStateException("this entry point launches no scans");
          },
          new MergeLock() {
            @Override
            public boolean acquire(MergedPullRequest holder) {
              throw new IllegalStateException("this entry point takes no merge lock");
            }

            @Override
            public boolean release(MergedPullRequest holder) {
              throw new IllegalStateException("this entry point releases no merge lock");
            }
          },
          github);
    }
  }

  /**
   * @param runner what rollback executions run
   * @param statusUrl where the merge-lock and deployment statuses link to; may be empty
   * @param operator how an operator runs {@code livegate admin} here, named wherever one is needed
   */
  public record Settings(
      FailurePolicy policy,
      RunnerArgv runner,
      LockScope lockScope,
      String statusUrl,
      OperatorCommands operator,
      Clock clock) {}

  private final Stores stores;
  private final StartNextDeployment startNext;
  private final CreateDeployment create;
  private final ReleaseReadyExecutions release;
  private final RecordOutcome outcomes;
  private final CastVote castVote;
  private final CommitStatusPublisher statuses;
  private final MergeGate gate;
  private final MergeLock lock;
  private final AdvanceDeployment advance;
  private final FinalStatuses finalStatuses;
  private final RunAdminCommand admin;

  private Engine(Stores stores, Runtime runtime, Settings settings) {
    Clock clock = settings.clock();
    this.stores = stores;
    this.startNext = new StartNextDeployment(stores.deployments(), stores.executions(), clock);
    this.create = new CreateDeployment(stores.deployments(), startNext, clock);
    this.release = new ReleaseReadyExecutions(stores.deployments(), stores.executions(), clock);
    this.outcomes =
        new RecordOutcome(
            stores.deployments(),
            stores.executions(),
            startNext,
            settings.policy(),
            settings.runner(),
            clock);
    this.castVote = new CastVote(stores.votes(), clock);
    this.statuses = StatusLedger.recording(runtime.github(), stores.ledger(), clock);
    this.gate =
        new MergeGate(
            stores.deployments(),
            stores.executions(),
            stores.pullRequests(),
            stores.ledger(),
            statuses,
            new MergeGate.LockStatuses(
                settings.lockScope(), settings.statusUrl(), settings.operator()),
            clock);
    this.lock = gate.announcing(runtime.lock());
    this.advance =
        new AdvanceDeployment(
            stores.deployments(),
            stores.executions(),
            new AdvanceDeployment.Steps(release, outcomes, startNext),
            new AdvanceDeployment.Effects(runtime.flows(), runtime.scans(), lock),
            settings.operator(),
            clock);
    this.finalStatuses =
        new FinalStatuses(
            stores.deployments(),
            stores.executions(),
            stores.ledger(),
            statuses,
            settings.statusUrl(),
            settings.operator());
    this.admin =
        new RunAdminCommand(
            stores.deployments(), stores.executions(), advance, settings.operator());
  }

  public static Engine build(Stores stores, Runtime runtime, Settings settings) {
    return new Engine(stores, runtime, settings);
  }

  public Stores stores() {
    return stores;
  }

  /** Starts the queue's next deployment when none holds the lock. */
  public StartNextDeployment startNext() {
    return startNext;
  }

  /** Stores a scanned merge's deployment and starts the queue's next one if none runs. */
  public CreateDeployment create() {
    return create;
  }

  /** Releases an unfinished deployment's ready executions (the local executor's resume). */
  public ReleaseReadyExecutions release() {
    return release;
  }

  /** Records one flow's outcome without advancing the queue (harnesses that drive flows). */
  public RecordOutcome outcomes() {
    return outcomes;
  }

  public CastVote castVote() {
    return castVote;
  }

  /** Posts commit statuses through the runtime's publisher and records them in the ledger. */
  public CommitStatusPublisher statuses() {
    return statuses;
  }

  public MergeGate gate() {
    return gate;
  }

  /** The runtime's merge lock, announcing each change through the merge gate. */
  public MergeLock lock() {
    return lock;
  }

  /**
   * The operator's commands ({@code livegate admin}), advancing the queue through {@link
   * #advance()}.
   */
  public RunAdminCommand admin() {
    return admin;
  }

  /** Queues merges, records outcomes, releases what became ready and hands the lock on. */
  public AdvanceDeployment advance() {
    return advance;
  }

  /** The final statuses that no flow posts: rejections, aborts and the deployment's end. */
  public FinalStatuses finalStatuses() {
    return finalStatuses;
  }
}
