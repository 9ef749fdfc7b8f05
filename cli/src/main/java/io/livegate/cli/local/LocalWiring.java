package io.livegate.cli.local;

import io.livegate.core.admin.Console;
import io.livegate.core.admin.RunAdminCommand;
import io.livegate.core.deploy.AdvanceDeployment;
import io.livegate.core.deploy.CreateDeployment;
import io.livegate.core.deploy.Execution;
import io.livegate.core.deploy.FailurePolicy;
import io.livegate.core.deploy.FlowLauncher;
import io.livegate.core.deploy.LoggedStatuses;
import io.livegate.core.deploy.OperatorCommands;
import io.livegate.core.deploy.StartNextDeployment;
import io.livegate.core.engine.Engine;
import io.livegate.core.pr.LockScope;
import io.livegate.core.runner.RunnerArgv;
import io.livegate.core.runner.Sandbox;
import io.livegate.core.runner.Shutdown;
import io.livegate.core.unit.PlanStore;
import io.livegate.core.unit.UnitStep;
import io.livegate.core.vote.CastVote;
import io.livegate.core.vote.VoteLinks;
import io.livegate.process.BubblewrapSandbox;
import io.livegate.process.LoggedCommandRunner;
import io.livegate.process.ProcessCommandRunner;
import io.livegate.process.TerraRun;
import io.livegate.scan.SandboxedPlan;
import io.livegate.scan.repo.SourceAccess;
import io.livegate.sql.JdbiDeploymentStore;
import io.livegate.sql.JdbiExecutionStore;
import io.livegate.sql.JdbiVoteStore;
import java.net.InetAddress;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * Builds the local runtime: the embedded metadb in the state directory, the engine over it (built
 * by {@link Engine#build}, as on AWS), and (on demand) the web server and the executor. Closing it
 * stops the server and shuts the metadb down cleanly.
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

  /** Where plans are kept between Plan and Apply, and where the vote page reads their text. */
  private final PlanStore plans;

  private final Clock clock = Clock.systemUTC();
  private final AtomicLong currentDeployment = new AtomicLong();
  private final java.util.concurrent.atomic.AtomicBoolean closed =
      new java.util.concurrent.atomic.AtomicBoolean();
  private final Runnable atShutdown = this::close;
  private final StateDirectoryLock lock;

  /** How long a run waits for a reader ({@code status}, {@code ui}) to let the state dir go. */
  private static final Duration READER_WAIT = Duration.ofSeconds(30);

  /**
   * Where terraform and terragrunt run: a bubblewrap sandbox that hides the state directory, or,
   * where bwrap is missing or cannot run, none (its description says so).
   */
  public final Sandbox sandbox;

  private final ProcessCommandRunner processes = new ProcessCommandRunner();

  /** What each execution's commands printed, kept in the state directory. */
  public final FileExecutionLogs logs;

  /**
   * Where the remote stack sources' cache is (in the state directory, which the sandbox hides) and
   * what their fetch may reach, as the operator granted.
   */
  public final SourceAccess sources;

  private Drain drain = new Drain(processes, Duration.ZERO, line -> {});
  private VoteServer server;
  private Optional<SmtpRelay> relay = Optional.empty();

  /** The wiring of {@code stateDirectory}, fetching sources with nothing granted. */
  public LocalWiring(Path stateDirectory) {
    this(stateDirectory, SourceAccess::in);
  }

  /**
   * @param sources the remote stack sources' access, given the state directory's root
   */
  public LocalWiring(Path stateDirectory, Function<Path, SourceAccess> sources) {
    // The lock first: a second run must not walk a directory that the holder is writing in.
    this.lock =
        StateDirectoryLock.takeFromReaders(StateDirectory.create(stateDirectory), READER_WAIT);
    LocalMetadb starting = null;
    try {
      this.state = StateDirectory.at(stateDirectory);
      // in the background, beside the sandbox's probe and what the command does before its first
      // statement
      starting = LocalMetadb.starting(state.metadb());
      this.metadb = starting;
      this.sandbox = sandbox(state.root());
      this.sources = sources.apply(state.root());
      this.logs = new FileExecutionLogs(state.logs());
    } catch (RuntimeException e) {
      try {
        if (starting != null) {
          starting.close();
        }
      } finally {
        lock.close();
      }
      throw e;
    }
    this.deployments = metadb.metadb().deployments();
    this.executions = metadb.metadb().executions();
    this.votes = metadb.metadb().votes();
    this.plans = new DirectoryPlanStore(state.root());
    Engine engine =
        engine(
            deployRuntime(line -> {}),
            FailurePolicy.ABORT_DEPENDENTS,
            RunnerArgv.TERRAGRUNT,
            LockScope.REPO,
            "");
    this.startNext = engine.startNext();
    this.create = engine.create();
    this.castVote = engine.castVote();
    // A JVM exit that this command did not reach itself (a signal no Drain handles): stop the web
    // server and shut the metadb down cleanly before the temporary files go; every flow step is
    // already recorded, so livegate resume continues from there.
    Shutdown.closing(atShutdown);
  }

  /**
   * Where terraform and terragrunt run for a local command: a bubblewrap sandbox that hides the
   * state directory {@code stateDirectory} (and livegate's temporary files), or, where bwrap is
   * missing or cannot run, none, whose description warns. {@code scan --scan plan} and {@code
   * drift} use it too, hiding the state directory they would use.
   */
  public static Sandbox sandbox(Path stateDirectory) {
    Path root = stateDirectory.toAbsolutePath().normalize();
    return BubblewrapSandbox.find(List.of(root))
        .orElseGet(
            () ->
                Sandbox.none(
                    "warning: bubblewrap (bwrap) is not available, so terraform runs without"
                        + " a sandbox: the code being deployed can read "
                        + root
                        + " (the metadb password, the vote key, other units' plans) and"
                        + " livegate's temporary files; install bubblewrap (docs/security.md)"));
  }

  /** Starts the vote and status server on 127.0.0.1:{@code port} (0 picks a free one). */
  public VoteServer server(int port) {
    return server(InetAddress.getLoopbackAddress(), port);
  }

  /** Starts the vote, status (and webhook) server on {@code address}:{@code port}. */
  public VoteServer server(InetAddress address, int port) {
    return server(address, port, Optional.empty());
  }

  /**
   * The key of this process's vote links, never stored: links die with the run that sent them. A
   * run that dies leaves its links in mailboxes and its port free for any local user to bind, who
   * would take a token from a voter who merely opened a link; the resumed run asks the voters again
   * with links of its own key, and refuses the old ones ("Invalid link").
   */
  private static byte[] roundKey() {
    byte[] key = new byte[32];
    new SecureRandom().nextBytes(key);
    return key;
  }

  /**
   * Starts the vote, status (and webhook) server on {@code address}:{@code port}, whose links say
   * {@code publicUrl} when given.
   */
  public VoteServer server(InetAddress address, int port, Optional<String> publicUrl) {
    if (server == null) {
      server =
          new VoteServer(
              new VoteServer.Listen(address, port, publicUrl),
              new VoteLinks(roundKey()),
              castVote,
              new VoteServer.Records(deployments, executions, votes, plans),
              clock,
              currentDeployment::get);
      server.console(
          new Console(
              new Console.Source(
                  deployments,
                  executions,
                  votes,
                  logs,
                  ConsoleHttp.planTexts(state.plans()),
                  Console.STATE_DIRECTORY)));
      lock.statusPage(server.baseUrl() + "/status");
    }
    return server;
  }

  /** The engine over this state directory's metadb, with the runtime's ports. */
  public Engine engine(
      Engine.Runtime runtime,
      FailurePolicy policy,
      RunnerArgv runner,
      LockScope lockScope,
      String statusUrl) {
    var store = metadb.metadb();
    return Engine.build(
        new Engine.Stores(deployments, executions, votes, store.pullRequests(), store.statuses()),
        runtime,
        new Engine.Settings(policy, runner, lockScope, statusUrl, OperatorCommands.LOCAL, clock));
  }

  /**
   * The runtime of {@code deploy}, {@code demo} and {@code resume}: the executor runs the flows
   * that the engine releases for the deployment it drives (a deployment started behind it waits for
   * {@code resume}), aborted flows stop at their next step, and there is no GitHub to post to.
   */
  private Engine.Runtime deployRuntime(Consumer<String> log) {
    return new Engine.Runtime(
        new FlowLauncher() {
          @Override
          public void start(Execution execution) {}

          @Override
          public void stop(Execution execution, String cause) {}
        },
        deployment ->
            log.accept(
                "deployment "
                    + deployment.id()
                    + " holds the lock but was never scanned; livegate serve scans merges"),
        metadb.metadb().mergeLock(clock),
        new LoggedStatuses(log));
  }

  /**
   * The operator's commands ({@code livegate admin}): no flow runs in this process, and a
   * deployment that takes the lock without its stack is scanned by {@code livegate serve}, as
   * {@code log} says.
   */
  public RunAdminCommand admin(Consumer<String> log) {
    return engine(
            deployRuntime(log),
            FailurePolicy.ABORT_DEPENDENTS,
            RunnerArgv.TERRAGRUNT,
            LockScope.REPO,
            "")
        .admin();
  }

  /** An executor for deployments of the repository at {@code repositoryRoot}, on its own. */
  public LocalDeployer deployer(
      Path repositoryRoot,
      RunnerArgv runner,
      FailurePolicy policy,
      LocalDeployer.Settings settings,
      int port,
      Consumer<String> log,
      Map<String, String> runnerEnvironment) {
    return deployer(
        repositoryRoot,
        runner,
        engine(deployRuntime(log), policy, runner, LockScope.REPO, "").advance(),
        settings,
        port,
        log,
        runnerEnvironment);
  }

  /** An executor whose flows' ends advance the queue through {@code advance}. */
  public LocalDeployer deployer(
      Path repositoryRoot,
      RunnerArgv runner,
      AdvanceDeployment advance,
      LocalDeployer.Settings settings,
      int port,
      Consumer<String> log,
      Map<String, String> runnerEnvironment) {
    UnitStep unitStep =
        new UnitStep(
            new UnitStep.Ports(
                executions,
                votes,
                plans,
                new LocalWorkspaces(repositoryRoot, state.baseCheckouts()),
                new TerraRun(
                    new SandboxedPlan.Tools(
                        new LoggedCommandRunner(processes, state.plans(), logs, clock),
                        runner,
                        sandbox
                            .keepingReadOnly(repositoryRoot)
                            .keepingApart(LocalWorkspaces.applyWorkspaces(repositoryRoot)),
                        runnerEnvironment),
                    repositoryRoot,
                    state.plans(),
                    sources)));
    return new LocalDeployer(
        new LocalDeployer.Ports(
            deployments,
            executions,
            advance,
            castVote,
            unitStep,
            new Outbox(state.outbox(), relay),
            server(port),
            drain),
        settings,
        log,
        clock);
  }

  /**
   * From now on, the vote requests of the executors this wiring builds go on through {@code relay}.
   */
  public void mailThrough(Optional<SmtpRelay> relay) {
    this.relay = relay;
  }

  /**
   * From now on, Ctrl-C, SIGTERM and SIGHUP stop the executors this wiring builds gracefully
   * ({@link Drain}), telling {@code log}.
   */
  public void drainOnSignals(Duration grace, Consumer<String> log) {
    drain = new Drain(processes, grace, log);
    drain.install();
  }

  /** Whether a signal asked this command to stop: no new deployment is taken on. */
  public boolean draining() {
    return drain.draining();
  }

  /**
   * Waits until a signal asks this command to stop ({@link #drainOnSignals} installed its
   * handlers).
   */
  public void awaitStopSignal() throws InterruptedException {
    drain.awaitSignal();
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
    Shutdown.cancel(atShutdown);
    try {
      if (server != null) {
        server.close();
      }
      metadb.close();
    } finally {
      lock.close();
    }
  }
}
