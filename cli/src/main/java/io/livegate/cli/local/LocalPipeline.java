package io.livegate.cli.local;

import io.livegate.core.LivegateException;
import io.livegate.core.account.Accounts;
import io.livegate.core.deploy.CommitStatusPublisher;
import io.livegate.core.deploy.Deployment;
import io.livegate.core.deploy.DeploymentStatus;
import io.livegate.core.deploy.Execution;
import io.livegate.core.deploy.FailurePolicy;
import io.livegate.core.deploy.FlowLauncher;
import io.livegate.core.deploy.MergedPullRequest;
import io.livegate.core.deploy.ScanLauncher;
import io.livegate.core.engine.Engine;
import io.livegate.core.pr.LockScope;
import io.livegate.core.pr.MergeGate;
import io.livegate.core.pr.PullRequestPlanner;
import io.livegate.core.runner.ResourceShortage;
import io.livegate.core.runner.RunnerArgv;
import io.livegate.core.webhook.WebhookReceiver;
import io.livegate.core.webhook.WebhookSettings;
import io.livegate.scan.CreateDeployStack;
import io.livegate.scan.GraphScan;
import io.livegate.scan.repo.Checkout;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * The whole pipeline on one machine, as {@code livegate serve} runs it: the webhook receiver, the
 * merge queue and lock in the metadb, and one worker thread that takes the deployment holding the
 * lock through its scan (a checkout of the merge commit) and its flows, then hands the lock on. The
 * worker is the local stand-in for create-deploy-stack and the trigger; AdvanceDeployment and the
 * merge gate are the same as on AWS. A deployment whose run stopped on an error (not a signal) is
 * run again after a backoff, instead of idling with the merge lock held: a resource of the machine
 * running out ({@link ResourceShortage}) until it is freed, since the operator frees it and expects
 * serve to carry on; any other error at most {@link Settings#retryLimit} times in a row, since a
 * broken repository URL or a revoked token does not heal by waiting, and retrying it forever would
 * only fill the log.
 */
public final class LocalPipeline implements ScanLauncher, FlowLauncher, AutoCloseable {
  private static final Duration FIRST_RETRY = Duration.ofSeconds(5);
  private static final Duration LAST_RETRY = Duration.ofMinutes(5);

  /** How many times in a row a deployment is retried after errors other than a shortage. */
  public static final int RETRY_LIMIT = 8;

  /**
   * What the pipeline runs with.
   *
   * @param retryLimit how many times in a row a deployment that stopped on an error other than a
   *     resource running out is run again before it is left to an operator
   */
  public record Settings(
      String repositoryUrl,
      Accounts accounts,
      RunnerArgv runner,
      FailurePolicy policy,
      LocalDeployer.Settings deploy,
      LockScope lockScope,
      int port,
      Map<String, String> runnerEnvironment,
      int retryLimit) {
    public Settings {
      if (retryLimit < 0) {
        throw new LivegateException("--retry-limit must be 0 or more, not " + retryLimit);
      }
    }
  }

  private final LocalWiring wiring;
  private final Settings settings;
  private final Engine engine;
  private final Checkout checkout;
  private final Consumer<String> log;
  private final Clock clock = Clock.systemUTC();
  private final ExecutorService worker =
      Executors.newSingleThreadExecutor(daemon("livegate-pipeline"));
  private final Set<Long> submitted = ConcurrentHashMap.newKeySet();

  /**
   * How often each deployment's run has stopped in a row, and how many of those stops were errors
   * other than a resource running out: its retry's backoff, and whether it is retried at all.
   */
  private record Stops(int inARow, int errors) {
    Stops plus(Stops other) {
      return new Stops(inARow + other.inARow, errors + other.errors);
    }
  }

  private final Map<Long, Stops> stops = new ConcurrentHashMap<>();

  private final ScheduledExecutorService retries =
      Executors.newSingleThreadScheduledExecutor(daemon("livegate-retry"));

  /**
   * @param github posts commit statuses (GitHub's API, or the log when no token is configured)
   * @param checkoutToken a token for HTTPS clones of {@code repositoryUrl}, asked for at each
   *     clone; empty for none
   */
  public LocalPipeline(
      LocalWiring wiring,
      Settings settings,
      CommitStatusPublisher github,
      java.util.Optional<java.util.function.Supplier<String>> checkoutToken,
      Consumer<String> log) {
    this.wiring = wiring;
    this.settings = settings;
    this.log = log;
    this.engine =
        wiring.engine(
            new Engine.Runtime(this, this, wiring.metadb.metadb().mergeLock(clock), github),
            settings.policy(),
            settings.runner(),
            settings.lockScope(),
            "");
    this.checkout = new Checkout(settings.repositoryUrl(), checkoutToken);
  }

  /** The receiver for {@code POST /webhook}. */
  public WebhookReceiver receiver(WebhookSettings webhook, PullRequestPlanner planner) {
    return new WebhookReceiver(
        webhook,
        wiring.metadb.metadb().deliveries(),
        planner,
        engine.gate(),
        engine.advance(),
        engine.statuses(),
        clock);
  }

  public MergeGate gate() {
    return engine.gate();
  }

  public CommitStatusPublisher statuses() {
    return engine.statuses();
  }

  /** Picks up a deployment that held the lock when an earlier serve stopped. */
  public void resume(String repository) {
    wiring.deployments.lockHolder(repository).ifPresent(this::submit);
  }

  @Override
  public void launch(Deployment deployment) {
    submit(deployment);
  }

  @Override
  public void start(Execution execution) {
    wiring.deployments.find(execution.deploymentId()).ifPresent(this::submit);
  }

  @Override
  public void stop(Execution execution, String cause) {
    // The local deployer sees the abort in the metadb and stops the unit's flow itself.
  }

  private void submit(Deployment deployment) {
    // Stopping: the deployment keeps the lock, and the next serve resumes it.
    if (!wiring.draining() && submitted.add(deployment.id())) {
      worker.submit(() -> run(deployment.id()));
    }
  }

  /**
   * Takes the deployment through its scan and its flows. The engine hands the lock on when the
   * deployment ends, and launches the next one through this pipeline.
   */
  private void run(long deploymentId) {
    try {
      Deployment deployment = wiring.deployments.find(deploymentId).orElseThrow();
      MergedPullRequest merge = deployment.pullRequest();
      Path root = wiring.state.root().resolve("workspace");
      removeStaleIndexLock(root);
      if (!deployment.stackStored()) {
        int scanned = createDeployStack(deploymentId, root).run(merge);
        if (scanned != 0) {
          return;
        }
      } else {
        checkout.at(root, merge.mergeCommit());
      }
      if (wiring.deployments.find(deploymentId).orElseThrow().status() == DeploymentStatus.QUEUED) {
        return;
      }
      wiring.show(deploymentId);
      DeploymentStatus status =
          wiring
              .deployer(
                  root,
                  settings.runner(),
                  engine.advance(),
                  settings.deploy(),
                  settings.port(),
                  log,
                  settings.runnerEnvironment())
              .run(deploymentId);
      log.accept("deployment " + deploymentId + " " + status.id());
      engine.finalStatuses().settle(deploymentId);
      stops.remove(deploymentId);
    } catch (RuntimeException e) {
      if (wiring.draining()) {
        log.accept("deployment " + deploymentId + " stopped: " + e.getMessage());
        return;
      }
      // A local error (a disk that was full, a file a killed run left) may be gone by the next
      // try; idling would keep the merge lock held until someone restarts serve.
      boolean shortage = ResourceShortage.in(e.getMessage()).isPresent();
      Stops stopped = stops.merge(deploymentId, new Stops(1, shortage ? 0 : 1), Stops::plus);
      log.accept("deployment " + deploymentId + " stopped: " + e.getMessage());
      if (!shortage && stopped.errors() > settings.retryLimit()) {
        stops.remove(deploymentId);
        log.accept(
            "not retrying deployment "
                + deploymentId
                + " again: it stopped on an error "
                + stopped.errors()
                + (stopped.errors() == 1 ? " time" : " times")
                + " in a row (--retry-limit "
                + settings.retryLimit()
                + "). It stays running, with what finished recorded, and holds the merge lock: fix"
                + " the cause, then restart livegate serve, which resumes it (or stop serve and run"
                + " livegate admin abort "
                + deploymentId
                + ")");
        return;
      }
      Duration wait = retryAfter(stopped.inARow());
      log.accept(
          "retrying deployment "
              + deploymentId
              + " in "
              + wait.toSeconds()
              + " s (it stopped "
              + stopped.inARow()
              + (stopped.inARow() == 1 ? " time" : " times")
              + " in a row"
              + (shortage
                  ? "; a resource running out is retried until it is freed)"
                  : "; "
                      + stopped.errors()
                      + " of --retry-limit "
                      + settings.retryLimit()
                      + " on errors)"));
      retries.schedule(
          () -> wiring.deployments.find(deploymentId).ifPresent(this::submit),
          wait.toMillis(),
          TimeUnit.MILLISECONDS);
    } finally {
      submitted.remove(deploymentId);
    }
  }

  /** Threads that never keep the JVM from exiting: the drain decides when serve stops. */
  private static ThreadFactory daemon(String name) {
    return runnable -> {
      Thread thread = new Thread(runnable, name);
      thread.setDaemon(true);
      return thread;
    };
  }

  /** The wait before the retry after {@code failed} stops in a row: doubling, at most 5 minutes. */
  static Duration retryAfter(int failed) {
    Duration wait = FIRST_RETRY.multipliedBy(1L << Math.min(failed - 1, 10));
    return wait.compareTo(LAST_RETRY) > 0 ? LAST_RETRY : wait;
  }

  /**
   * Removes the index lock that a run killed inside git's checkout of the workspace left: this
   * worker is the workspace's only user (one thread, and the state directory's lock keeps other
   * runs out), so a lock there before it starts is stale, and every later checkout would fail on
   * it.
   */
  private void removeStaleIndexLock(Path workspace) {
    Path lock = workspace.resolve(".git").resolve("index.lock");
    try {
      if (Files.deleteIfExists(lock)) {
        log.accept("removed " + lock + ", which a run killed in git's checkout left");
      }
    } catch (IOException e) {
      throw new LivegateException("cannot remove the stale " + lock + ": " + e.getMessage(), e);
    }
  }

  /**
   * create-deploy-stack in the worker: a failed scan fails the deployment and passes the lock on; a
   * deployment that storing started behind this one is run next.
   */
  private CreateDeployStack createDeployStack(long deploymentId, Path root) {
    return new CreateDeployStack(
        wiring.deployments,
        engine.create(),
        new CreateDeployStack.Scanning(
            checkout,
            root,
            command -> new GraphScan(log::accept).run(command.withSources(wiring.sources)),
            settings.accounts(),
            settings.runner()),
        new CreateDeployStack.Reporting(
            new CreateDeployStack.Events() {
              @Override
              public void deploymentCreated(long id) {
                if (id != deploymentId) {
                  wiring.deployments.find(id).ifPresent(LocalPipeline.this::submit);
                }
              }

              @Override
              public void scanFailed(long id, String reason) {
                engine.advance().scanFailed(id, reason);
              }
            },
            engine.statuses(),
            "",
            log::accept),
        clock);
  }

  /**
   * Lets the running deployment stop: after a signal its flows stop before their next step and its
   * running terraform finishes within the grace period (or is interrupted), so what is recorded is
   * what happened and the next serve resumes the rest. Without a signal (serve failed to start) the
   * worker has nothing running and ends at once.
   */
  @Override
  public void close() {
    retries.shutdownNow();
    worker.shutdown();
    try {
      while (!worker.awaitTermination(10, TimeUnit.SECONDS)) {
        log.accept("stopping: waiting for the running deployment's flows to stop");
      }
    } catch (InterruptedException e) {
      worker.shutdownNow();
      Thread.currentThread().interrupt();
    }
  }
}
