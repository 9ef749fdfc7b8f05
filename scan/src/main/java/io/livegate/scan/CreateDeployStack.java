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
import io.livegate.core.deploy.TrunkOrder;
import io.livegate.core.runner.RunnerArgv;
import io.livegate.core.stack.DeployStack;
import io.livegate.scan.repo.Checkout;
import io.livegate.scan.repo.GitRepo;
import io.livegate.scan.repo.TrunkBeforeMerge;
import java.nio.file.Path;
import java.time.Clock;
import java.util.function.Function;

/**
 * create-deploy-stack, in both runtimes: checks out the merge commit, scans the change set from the
 * last deployed commit, or the trunk's head just before the merge ({@link TrunkBeforeMerge}) when
 * there is none ({@link TrunkOrder}: a merge whose delivery came late, after a later merge's range
 * deployed it, is recorded as covered and deploys nothing), stores it as the merge's deployment's
 * executions in one transaction, and tells the runtime (the trigger on AWS, the local pipeline's
 * worker). The merge is queued first (the webhook receiver queued it already, in merge order;
 * queuing is idempotent), so a failure has a deployment to report against: nothing of the stack is
 * stored, a failed status is posted, and the trigger fails the deployment and passes the lock on,
 * so the next merge is not blocked by a scan that cannot succeed.
 */
public final class CreateDeployStack {
  /** What the runtime hears: the trigger Lambda on AWS, the engine directly locally. */
  public interface Events {
    /** The deployment's stack is stored: its flows may start. */
    void deploymentCreated(long deploymentId);

    /** The deployment's stack could not be stored: it fails, and the lock passes on. */
    void scanFailed(long deploymentId, String reason);
  }

  /**
   * How a merge becomes a stack: where its commit is checked out, and how the change set is scanned
   * and turned into executions.
   *
   * @param checkout fetches and checks out the merge commit
   * @param workspace the directory the commit is checked out in
   * @param scan the graph scan or the plan scan
   * @param accounts the installation's accounts
   * @param runner the argv each execution's commands are built with
   */
  public record Scanning(
      Checkout checkout,
      Path workspace,
      Function<ScanCommand, DeployStack> scan,
      Accounts accounts,
      RunnerArgv runner) {}

  /**
   * Who hears how it went.
   *
   * @param events the runtime (the trigger on AWS, the local pipeline's worker)
   * @param statuses the merge commit's {@link StatusTexts#DEPLOY} status
   * @param logUrl where the status links to ({@code ""} for none)
   * @param progress the task's log
   */
  public record Reporting(
      Events events, CommitStatusPublisher statuses, String logUrl, ProgressListener progress) {}

  private final DeploymentStore deployments;
  private final CreateDeployment create;
  private final Scanning scanning;
  private final Reporting reporting;
  private final Clock clock;

  public CreateDeployStack(
      DeploymentStore deployments,
      CreateDeployment create,
      Scanning scanning,
      Reporting reporting,
      Clock clock) {
    this.deployments = deployments;
    this.create = create;
    this.scanning = scanning;
    this.reporting = reporting;
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
      Path root = scanning.checkout().at(scanning.workspace(), sha);
      TrunkOrder.Range range;
      try (GitRepo repo = GitRepo.open(root)) {
        String trunkBefore =
            TrunkBeforeMerge.of(
                repo,
                merge,
                head ->
                    scanning.checkout().fetch(root, head, "refs/pull/" + merge.number() + "/head"));
        range =
            TrunkOrder.of(
                merge,
                deployments.lastDeployed(merge.repository(), queued.id()),
                trunkBefore,
                repo::firstParentsBetween);
      }
      if (range instanceof TrunkOrder.Covered covered) {
        return covered(queued.id(), merge, covered);
      }
      TrunkOrder.Span span = (TrunkOrder.Span) range;
      DeployStack stack =
          scanning
              .scan()
              .apply(
                  ScanCommand.builder(root, scanning.accounts())
                      .base(span.base())
                      .head(sha)
                      .build());
      CreateDeployment.Result result =
          create.create(
              new CreateDeploymentCommand(merge, stack, scanning.accounts(), scanning.runner()));
      long id = result.deployment().id();
      reporting.events().deploymentCreated(id);
      result
          .started()
          .filter(started -> started.id() != id)
          .ifPresent(started -> reporting.events().deploymentCreated(started.id()));
      String description =
          "deployment "
              + id
              + ": "
              + stack.executions().size()
              + " units"
              + (span.caughtUp().isEmpty()
                  ? ""
                  : ", with " + span.caughtUp().size() + " earlier trunk commits not deployed yet");
      reporting
          .statuses()
          .publish(
              merge.repository(),
              sha,
              StatusTexts.DEPLOY,
              CommitStatusPublisher.State.PENDING,
              description,
              reporting.logUrl());
      if (!span.caughtUp().isEmpty()) {
        reporting
            .progress()
            .progress(
                "deployment "
                    + id
                    + " deploys "
                    + span.base()
                    + ".."
                    + sha
                    + ", catching up trunk commits whose merges were not delivered (yet): "
                    + String.join(", ", span.caughtUp()));
      }
      if (!span.note().isEmpty()) {
        reporting.progress().progress("deployment " + id + ": " + span.note());
      }
      reporting.progress().progress(description);
      return 0;
    } catch (RuntimeException e) {
      String why = "no deployment stored: " + e.getMessage();
      reporting.events().scanFailed(queued.id(), why);
      return failed(merge, why);
    }
  }

  /**
   * The merge was deployed already by a later merge's range (its delivery came late): it is stored
   * with nothing to deploy, so the runtime finishes it and hands the lock on, and its older code
   * never overwrites what came after it.
   */
  private int covered(long id, MergedPullRequest merge, TrunkOrder.Covered covered) {
    deployments.cover(id, covered.deployment());
    reporting.events().deploymentCreated(id);
    String description =
        "deployment "
            + id
            + ": covered by deployment "
            + covered.deployment()
            + ", which deployed the trunk up to "
            + covered.deployedHead();
    reporting
        .statuses()
        .publish(
            merge.repository(),
            merge.mergeCommit(),
            StatusTexts.DEPLOY,
            CommitStatusPublisher.State.PENDING,
            description,
            reporting.logUrl());
    reporting.progress().progress(description);
    return 0;
  }

  private int failed(MergedPullRequest merge, String why) {
    reporting.progress().progress(why);
    reporting
        .statuses()
        .publish(
            merge.repository(),
            merge.mergeCommit(),
            StatusTexts.DEPLOY,
            CommitStatusPublisher.State.FAILURE,
            why,
            reporting.logUrl());
    return 1;
  }
}
