package io.livegate.tasks;

import io.livegate.core.account.Accounts;
import io.livegate.core.drift.DriftReport;
import io.livegate.core.drift.DriftReportFormat;
import io.livegate.core.drift.ReportDrift;
import io.livegate.core.repo.Checkout;
import io.livegate.core.scan.DriftScan;
import io.livegate.core.scan.ScanCommand;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * drift: the scheduled run. Checks out the trunk's head, plans every unit ({@link DriftScan}), logs
 * the report, and reports it on GitHub and by mail ({@link ReportDrift}) when a token is
 * configured. Exit code as {@code livegate drift}: 0 in sync, 2 drift, 1 a unit could not be
 * planned.
 */
public final class DriftJob {
  private final Checkout checkout;
  private final Path workspace;
  private final DriftScan scan;
  private final Accounts accounts;
  private final Optional<ReportDrift> report;
  private final Consumer<String> log;

  public DriftJob(
      Checkout checkout,
      Path workspace,
      DriftScan scan,
      Accounts accounts,
      Optional<ReportDrift> report,
      Consumer<String> log) {
    this.checkout = checkout;
    this.workspace = workspace;
    this.scan = scan;
    this.accounts = accounts;
    this.report = report;
    this.log = log;
  }

  public int run(String repository, String trunk) {
    String head = checkout.branchHead(trunk);
    Path root = checkout.at(workspace, head);
    DriftReport found =
        scan.run(
            new ScanCommand(
                root,
                null,
                head,
                accounts,
                true,
                ScanCommand.DEFAULT_FILE_PATTERN,
                Map.of(),
                Runtime.getRuntime().availableProcessors()));
    log.accept(DriftReportFormat.text(found));
    report.ifPresentOrElse(
        reporter ->
            log.accept(
                "drift issue on "
                    + repository
                    + ": "
                    + reporter.report(repository, found, accounts).name().toLowerCase()),
        () -> log.accept("no GitHub token: the drift report is in this log only"));
    if (!found.errors().isEmpty()) {
      return 1;
    }
    return found.drifted().isEmpty() ? 0 : 2;
  }
}
