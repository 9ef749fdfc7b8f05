package io.livegate.scan;

import io.livegate.core.account.Accounts;
import io.livegate.core.deploy.CreateDeployment;
import io.livegate.core.deploy.CreateDeploymentCommand;
import io.livegate.core.deploy.MergedPullRequest;
import io.livegate.core.drift.DriftReport;
import io.livegate.core.drift.ReconcileStack;
import io.livegate.core.runner.RunnerArgv;
import io.livegate.core.stack.DeployStack;
import java.nio.file.Path;
import java.util.Map;
import java.util.function.Function;

/**
 * Queues the drift reconcile of a drift run (docs/drift.md): a deployment of the drifted units
 * only, identified by the run, stored with its executions into the same queue as merges, so that it
 * waits behind them and takes the same merge lock. Both runtimes call it: the local one then runs
 * the deployment itself, the AWS drift task tells the trigger, as create-deploy-stack does.
 */
public final class QueueReconcile {
  /** What was stored, and the drifted units' stack it was stored with. */
  public record Queued(CreateDeployment.Result result, DeployStack stack) {}

  private final CreateDeployment create;
  private final Function<ScanCommand, DeployStack> scan;
  private final Accounts accounts;
  private final RunnerArgv runner;

  /**
   * @param scan the graph scan: it reads every unit of the head for the order of the drifted ones
   */
  public QueueReconcile(
      CreateDeployment create,
      Function<ScanCommand, DeployStack> scan,
      Accounts accounts,
      RunnerArgv runner) {
    this.create = create;
    this.scan = scan;
    this.accounts = accounts;
    this.runner = runner;
  }

  /**
   * @param root the checkout of {@code report}'s head
   * @param trunkRef the trunk branch the head is on
   * @return the stored deployment (or the one this drift run stored before), what was started, and
   *     the stack
   */
  public Queued queue(
      String repository,
      String trunkRef,
      Path root,
      DriftReport report,
      String driftRun,
      Map<String, String> environment,
      int parallelism) {
    DeployStack everyUnit =
        scan.apply(
            ScanCommand.builder(root, accounts)
                .head(report.head())
                .everyUnit()
                .environment(environment)
                .parallelism(parallelism)
                .build());
    DeployStack drifted = ReconcileStack.of(everyUnit, report);
    return new Queued(
        create.create(
            new CreateDeploymentCommand(
                MergedPullRequest.reconcile(repository, trunkRef, report.head(), driftRun),
                drifted,
                accounts,
                runner)),
        drifted);
  }
}
