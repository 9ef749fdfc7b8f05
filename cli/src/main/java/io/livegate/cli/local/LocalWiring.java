package io.livegate.cli.local;

import io.livegate.core.deploy.CreateDeployment;
import io.livegate.core.deploy.FailurePolicy;
import io.livegate.core.deploy.RecordOutcome;
import io.livegate.core.deploy.ReleaseReadyExecutions;
import io.livegate.core.deploy.StartNextDeployment;
import io.livegate.core.runner.RunnerKind;
import io.livegate.core.vote.CastVote;
import io.livegate.core.vote.VoteLinks;
import io.livegate.process.ProcessCommandRunner;
import io.livegate.process.TerraRun;
import io.livegate.sql.JdbiDeploymentStore;
import io.livegate.sql.JdbiExecutionStore;
import io.livegate.sql.JdbiVoteStore;
import java.net.InetAddress;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/**
 * Builds the local runtime by hand: the embedded metadb in the state directory, the engine's use
 * cases over it, and (on demand) the web server and the executor. Closing it stops the server and
 * shuts the metadb down cleanly.
 */
public final class LocalWiring implements AutoCloseable {
  public final StateDirectory state;
  public final LocalMetadb metadb;
  public final JdbiDeploymentStore deployments;
  public final JdbiExecutionStore executions;
  public final JdbiVoteStore votes;
  public final StartNextDeployment startNext;
  public final CreateDeployment create;
  public final CastVote castVote;
  private final Clock clock = Clock.systemUTC();
  private final AtomicLong currentDeployment = new AtomicLong();
  private final java.util.concurrent.atomic.AtomicBoolean closed =
      new java.util.concurrent.atomic.AtomicBoolean();
  private final Thread shutdownHook = new Thread(this::close, "livegate-shutdown");
  private VoteServer server;

  public LocalWiring(Path stateDirectory) {
    this.state = StateDirectory.at(stateDirectory);
    this.metadb = LocalMetadb.start(state.metadb());
    this.deployments = metadb.metadb().deployments();
    this.executions = metadb.metadb().executions();
    this.votes = metadb.metadb().votes();
    this.startNext = new StartNextDeployment(deployments, executions, clock);
    this.create = new CreateDeployment(deployments, startNext, clock);
    this.castVote = new CastVote(votes, clock);
    // Ctrl-C: stop the web server and shut the metadb down cleanly; every flow step is already
    // recorded, so livegate resume continues from there.
    Runtime.getRuntime().addShutdownHook(shutdownHook);
  }

  /** Starts the vote and status server on 127.0.0.1:{@code port} (0 picks a free one). */
  public VoteServer server(int port) {
    return server(InetAddress.getLoopbackAddress(), port);
  }

  /** Starts the vote, status (and webhook) server on {@code address}:{@code port}. */
  public VoteServer server(InetAddress address, int port) {
    if (server == null) {
      server =
          new VoteServer(
              address,
              port,
              new VoteLinks(state.voteSecret()),
              castVote,
              deployments,
              executions,
              votes,
              state.plans(),
              clock,
              currentDeployment::get);
    }
    return server;
  }

  /** An executor for deployments of the repository at {@code repositoryRoot}. */
  public LocalDeployer deployer(
      Path repositoryRoot,
      RunnerKind runner,
      FailurePolicy policy,
      LocalDeployer.Settings settings,
      int port,
      Consumer<String> log,
      Map<String, String> runnerEnvironment) {
    TerraRun terraRun =
        new TerraRun(
            new ProcessCommandRunner(), runner, repositoryRoot, state.plans(), runnerEnvironment);
    RecordOutcome outcomes =
        new RecordOutcome(deployments, executions, startNext, policy, runner, clock);
    return new LocalDeployer(
        deployments,
        executions,
        new ReleaseReadyExecutions(deployments, executions, clock),
        outcomes,
        castVote,
        terraRun,
        new Outbox(state.outbox()),
        server(port),
        settings,
        log,
        clock);
  }

  /** Which deployment the status page shows. */
  public void show(long deploymentId) {
    currentDeployment.set(deploymentId);
  }

  @Override
  public void close() {
    if (!closed.compareAndSet(false, true)) {
      return;
    }
    if (Thread.currentThread() != shutdownHook) {
      Runtime.getRuntime().removeShutdownHook(shutdownHook);
    }
    if (server != null) {
      server.close();
    }
    metadb.close();
  }
}
