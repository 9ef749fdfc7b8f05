package io.livegate.tasks;

import io.livegate.core.ProgressListener;
import io.livegate.core.account.Accounts;
import io.livegate.core.deploy.CommitStatusPublisher;
import io.livegate.core.deploy.CreateDeployment;
import io.livegate.core.deploy.CreateDeploymentCommand;
import io.livegate.core.deploy.Deployment;
import io.livegate.core.deploy.MergeLock;
import io.livegate.core.deploy.MergedPullRequest;
import io.livegate.core.deploy.StatusTexts;
import io.livegate.core.repo.Checkout;
import io.livegate.core.runner.RunnerKind;
import io.livegate.core.scan.DeployStack;
import io.livegate.core.scan.ScanCommand;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.LongConsumer;

/**
 * create-deploy-stack: checks out the merge commit, scans the change set, stores the deployment
 * with its executions in one transaction, and tells the trigger. A failure at any step stores
 * nothing, posts a failed status and releases the merge lock, so the next merge is not blocked by a
 * scan that cannot succeed.
 */
public final class CreateDeployStackJob {
  private final CreateDeployment create;
  private final Function<ScanCommand, DeployStack> scan;
  private final Checkout checkout;
  private final Accounts accounts;
  private final RunnerKind runner;
  private final MergeLock lock;
  private final CommitStatusPublisher statuses;
  private final LongConsumer deploymentCreated;
  private final Path workspace;
  private final String logUrl;
  private final ProgressListener progress;

  /**
   * @param scan the graph scan or the plan scan
   * @param deploymentCreated tells the trigger that a deployment started (a Lambda invoke on AWS)
   */
  public CreateDeployStackJob(
      CreateDeployment create,
      Function<ScanCommand, DeployStack> scan,
      Checkout checkout,
      Accounts accounts,
      RunnerKind runner,
      MergeLock lock,
      CommitStatusPublisher statuses,
      LongConsumer deploymentCreated,
      Path workspace,
      String logUrl,
      ProgressListener progress) {
    this.create = create;
    this.scan = scan;
    this.checkout = checkout;
    this.accounts = accounts;
    this.runner = runner;
    this.lock = lock;
    this.statuses = statuses;
    this.deploymentCreated = deploymentCreated;
    this.workspace = workspace;
    this.logUrl = logUrl;
    this.progress = progress;
  }

  /** Runs the job; 0 when the deployment is stored, 1 when nothing was. */
  public int run(MergedPullRequest merge) {
    String sha = merge.mergeCommit();
    try {
      Path root = checkout.at(workspace, sha);
      DeployStack stack =
          scan.apply(
              new ScanCommand(
                  root,
                  merge.baseCommit(),
                  sha,
                  accounts,
                  false,
                  ScanCommand.DEFAULT_FILE_PATTERN,
                  Map.of(),
                  Runtime.getRuntime().availableProcessors()));
      CreateDeployment.Result result =
          create.create(new CreateDeploymentCommand(merge, stack, accounts, runner));
      Deployment deployment = result.deployment();
      Optional<Deployment> started = result.started();
      String description =
          "deployment "
              + deployment.id()
              + ": "
              + stack.executions().size()
              + " units"
              + (started.isPresent() && started.get().id() == deployment.id() ? "" : ", queued");
      if (started.isPresent()) {
        lock.acquire(started.get().pullRequest());
        deploymentCreated.accept(started.get().id());
      }
      statuses.publish(
          merge.repository(),
          sha,
          StatusTexts.DEPLOY,
          CommitStatusPublisher.State.PENDING,
          description,
          logUrl);
      progress.progress(description);
      return 0;
    } catch (RuntimeException e) {
      String why = "no deployment stored: " + e.getMessage();
      progress.progress(why);
      statuses.publish(
          merge.repository(),
          sha,
          StatusTexts.DEPLOY,
          CommitStatusPublisher.State.FAILURE,
          why,
          logUrl);
      lock.release(merge);
      return 1;
    }
  }
}
