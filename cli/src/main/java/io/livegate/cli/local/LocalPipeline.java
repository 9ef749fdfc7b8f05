package io.livegate.cli.local;

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
import io.livegate.core.runner.RunnerArgv;
import io.livegate.core.webhook.WebhookReceiver;
import io.livegate.core.webhook.WebhookSettings;
import io.livegate.scan.CreateDeployStack;
import io.livegate.scan.GraphScan;
import io.livegate.scan.repo.Checkout;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * The whole pipeline on one machine, as {@code livegate serve} runs it: the webhook receiver, the
 * merge queue and lock in the metadb, and one worker thread that takes the deployment holding the
 * lock through its scan (a checkout of the merge commit) and its flows, then hands the lock on. The
 * worker is the local stand-in for create-deploy-stack and the trigger; AdvanceDeployment and the
 * merge gate are the same as on AWS.
 */
public final class LocalPipeline implements ScanLauncher, FlowLauncher, AutoCloseable {
  /** What the pipeline runs with. */
  public record Settings(
      String repositoryUrl,
      Accounts accounts,
      RunnerArgv runner,
      FailurePolicy policy,
      LocalDeployer.Settings deploy,
      LockScope lockScope,
      int port,
      Map<String, String> runnerEnvironment) {}

  private final LocalWiring wiring;
  private final Settings settings;
  private final Engine engine;
  private final Checkout checkout;
  private final Consumer<String> log;
  private final Clock clock = Clock.systemUTC();
  private final ExecutorService worker =
      Executors.newSingleThreadExecutor(
          runnable -> {
            Thread thread = new Thread(runnable, "livegate-pipeline");
            thread.setDaemon(true);
            return thread;
          });
  private final Set<Long> submitted = ConcurrentHashMap.newKeySet();

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
    } catch (RuntimeException e) {
      log.accept("deployment " + deploymentId + " stopped: " + e.getMessage());
    } finally {
      submitted.remove(deploymentId);
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
