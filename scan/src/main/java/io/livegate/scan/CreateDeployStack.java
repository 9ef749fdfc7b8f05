package io.livegate.scan;

import io.livegate.core.ProgressListener;
import io.livegate.core.account.Accounts;
import io.livegate.core.deploy.CommitStatusPublisher;
import io.livegate.core.deploy.CreateDeployment;
import io.livegate.core.deploy.CreateDeploymentCommand;
import io.livegate.core.deploy.Deployment;
import io.livegate.core.deploy.DeploymentStore;
import io.livegate.core.deploy.MergedPullRequest;
import io.livegate.core.deploy.StatusTexts;
import io.livegate.core.runner.RunnerArgv;
import io.livegate.core.stack.DeployStack;
import io.livegate.scan.repo.Checkout;
import io.livegate.scan.repo.GitRepo;
import io.livegate.scan.repo.TrunkBeforeMerge;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Map;
import java.util.function.Function;

/**
 * create-deploy-stack, in both runtimes: checks out the merge commit, scans the change set from the
 * trunk's head just before the merge ({@link TrunkBeforeMerge}), stores it as the merge's
 * deployment's executions in one transaction, and tells the runtime (the trigger on AWS, the local
 * pipeline's worker). The merge is queued first (the webhook receiver queued it already, in merge
 * order; queuing is idempotent), so a failure has a deployment to report against: nothing of the
 * stack is stored, a failed status is posted, and the trigger fails the deployment and passes the
 * lock on, so the next merge is not blocked by a scan that cannot succeed.
 */
public final class CreateDeployStack {
  /** What the runtime hears: the trigger Lambda on AWS, the engine directly locally. */
  public interface Events {
    /** The deployment's stack is stored: its flows may start. */
    void deploymentCreated(long deploymentId);

    /** The deployment's stack could not be stored: it fails, and the lock passes on. */
    void scanFailed(long deploymentId, String reason);
  }

  private final DeploymentStore deployments;
  private final CreateDeployment create;
  private final Function<ScanCommand, DeployStack> scan;
  private final Checkout checkout;
  private final Accounts accounts;
  private final RunnerArgv runner;
  private final CommitStatusPublisher statuses;
  private final Events events;
  private final Path workspace;
  private final String logUrl;
  private final ProgressListener progress;
  private final Clock clock;

  /**
   * @param scan the graph scan or the plan scan
   */
  public CreateDeployStack(
      DeploymentStore deployments,
      CreateDeployment create,
      Function<ScanCommand, DeployStack> scan,
      Checkout checkout,
      Accounts accounts,
      RunnerArgv runner,
      CommitStatusPublisher statuses,
      Events events,
      Path workspace,
      String logUrl,
      ProgressListener progress,
      Clock clock) {
    this.deployments = deployments;
    this.create = create;
    this.scan = scan;
    this.checkout = checkout;
    this.accounts = accounts;
    this.runner = runner;
    this.statuses = statuses;
    this.events = events;
    this.workspace = workspace;
    this.logUrl = logUrl;
    this.progress = progress;
    this.clock = clock;
  }

  /** Runs create-deploy-stack; 0 when the stack is stored, 1 when nothing was. */
  public int run(MergedPullRequest merge) {
    String sha = merge.mergeCommit();
    Deployment queued;
    try {
      queued = deployments.enqueue(merge, clock.instant()).deployment();
    } catch (RuntimeException e) {
      return failed(merge, "cannot queue the merge: " + e.getMessage());
    }
    try {
      Path root = checkout.at(workspace, sha);
      String base;
      try (GitRepo repo = GitRepo.open(root)) {
        base =
            TrunkBeforeMerge.of(
                repo,
                merge,
                head -> checkout.fetch(root, head, "refs/pull/" + merge.number() + "/head"));
      }
      DeployStack stack =
          scan.apply(
              new ScanCommand(
                  root,
                  base,
                  sha,
                  accounts,
                  false,
                  ScanCommand.DEFAULT_FILE_PATTERN,
                  Map.of(),
                  Runtime.getRuntime().availableProcessors()));
      CreateDeployment.Result result =
          create.create(new CreateDeploymentCommand(merge, stack, accounts, runner));
      long id = result.deployment().id();
      events.deploymentCreated(id);
      result
          .started()
          .filter(started -> started.id() != id)
          .ifPresent(started -> events.deploymentCreated(started.id()));
      String description = "deployment " + id + ": " + stack.executions().size() + " units";
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
      events.scanFailed(queued.id(), why);
      return failed(merge, why);
    }
  }

  private int failed(MergedPullRequest merge, String why) {
    progress.progress(why);
    statuses.publish(
        merge.repository(),
        merge.mergeCommit(),
        StatusTexts.DEPLOY,
        CommitStatusPublisher.State.FAILURE,
        why,
        logUrl);
    return 1;
  }
}
