package io.livegate.tasks;

import io.livegate.core.account.Accounts;
import io.livegate.core.deploy.CommitStatusPublisher;
import io.livegate.core.deploy.StatusTexts;
import io.livegate.core.drift.DriftReport;
import io.livegate.core.drift.DriftReportFormat;
import io.livegate.core.drift.ReportDrift;
import io.livegate.scan.DriftScan;
import io.livegate.scan.QueueReconcile;
import io.livegate.scan.ScanCommand;
import io.livegate.scan.repo.Checkout;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.LongConsumer;

/**
 * drift: the scheduled run. Checks out the trunk's head, plans every unit ({@link DriftScan}), logs
 * the report, and reports it on GitHub and by mail ({@link ReportDrift}) when a token is
 * configured. With a {@link Reconcile} ({@value
 * io.livegate.statemachine.RuntimeContract.Tasks#DRIFT_RECONCILE}), it then queues the drift
 * reconcile of the drifted units into the metadb's queue and tells the trigger, as
 * create-deploy-stack does with a merge. Exit code as {@code livegate drift}: 0 in sync, 2 drift, 1
 * a unit could not be planned.
 */
public final class DriftJob {
  /**
   * Queuing the reconcile.
   *
   * @param deploymentCreated tells the trigger that a deployment holding the lock has its stack
   * @param statuses posts the reconcile's {@code livegate/deploy} status on the head and records it
   *     in the metadb's ledger, as create-deploy-stack does for a merge
   * @param logUrl where that status links to; may be empty
   */
  public record Reconcile(
      QueueReconcile queue,
      LongConsumer deploymentCreated,
      CommitStatusPublisher statuses,
      String logUrl) {}

  private final Checkout checkout;
  private final Path workspace;
  private final Function<ScanCommand, DriftReport> scan;
  private final Accounts accounts;
  private final Optional<ReportDrift> report;
  private final Optional<Reconcile> reconcile;
  private final Consumer<String> log;

  /**
   * @param scan plans every unit of a checked-out head ({@link DriftScan}) with the rules of the
   *     terragrunt release the runner installed, which decide how a config's {@code skip} and
   *     {@code exclude} read
   */
  public DriftJob(
      Checkout checkout,
      Path workspace,
      Function<ScanCommand, DriftReport> scan,
      Accounts accounts,
      Optional<ReportDrift> report,
      Optional<Reconcile> reconcile,
      Consumer<String> log) {
    this.checkout = checkout;
    this.workspace = workspace;
    this.scan = scan;
    this.accounts = accounts;
    this.report = report;
    this.reconcile = reconcile;
    this.log = log;
  }

  public int run(String repository, String trunk) {
    String head = checkout.branchHead(trunk);
    Path root = checkout.at(workspace, head);
    DriftReport found =
        scan.apply(ScanCommand.builder(root, accounts).head(head).everyUnit().build());
    log.accept(DriftReportFormat.text(found));
    report.ifPresentOrElse(
        reporter ->
            log.accept(
                "drift issue on "
                    + repository
                    + ": "
                    + reporter.report(repository, found, accounts).name().toLowerCase()),
        () -> log.accept("no GitHub token: the drift report is in this log only"));
    if (!found.drifted().isEmpty()) {
      reconcile.ifPresent(queue -> reconcile(queue, repository, trunk, root, found));
    }
    if (!found.errors().isEmpty()) {
      return 1;
    }
    return found.drifted().isEmpty() ? 0 : 2;
  }

  private void reconcile(
      Reconcile reconcile, String repository, String trunk, Path root, DriftReport found) {
    QueueReconcile.Queued queued =
        reconcile
            .queue()
            .queue(
                repository,
                trunk,
                root,
                found,
                "drift-" + UUID.randomUUID(),
                Map.of(),
                Runtime.getRuntime().availableProcessors());
    long id = queued.result().deployment().id();
    // As create-deploy-stack does for a merge, but before the trigger hears of the deployment, so
    // that the final status the trigger posts at its end can never be overtaken by this one.
    String description =
        "deployment " + id + " (drift reconcile): " + queued.stack().executions().size() + " units";
    reconcile
        .statuses()
        .publish(
            repository,
            found.head(),
            StatusTexts.DEPLOY,
            CommitStatusPublisher.State.PENDING,
            description,
            reconcile.logUrl());
    reconcile.deploymentCreated().accept(id);
    queued
        .result()
        .started()
        .filter(started -> started.id() != id)
        .ifPresent(started -> reconcile.deploymentCreated().accept(started.id()));
    log.accept(
        "drift reconcile: deployment "
            + id
            + " of "
            + queued.stack().executions().size()
            + " drifted units "
            + queued.result().deployment().status().id());
  }
}
