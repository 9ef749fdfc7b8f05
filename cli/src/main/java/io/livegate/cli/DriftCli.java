package io.livegate.cli;

import io.livegate.cli.local.LocalWiring;
import io.livegate.cli.local.SmtpRelay;
import io.livegate.core.LivegateException;
import io.livegate.core.ProgressListener;
import io.livegate.core.account.Accounts;
import io.livegate.core.deploy.Deployment;
import io.livegate.core.drift.DriftReport;
import io.livegate.core.drift.DriftReportFormat;
import io.livegate.core.runner.RunnerArgv;
import io.livegate.core.runner.Sandbox;
import io.livegate.process.ProcessCommandRunner;
import io.livegate.process.RunnerEnvironment;
import io.livegate.scan.DriftScan;
import io.livegate.scan.SandboxedPlan;
import io.livegate.scan.ScanCommand;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/** {@code livegate drift}: plans every unit at the trunk head and reports what drifted. */
@Command(
    name = "drift",
    footerHeading = "%nExamples:%n",
    footer = {
      "  livegate drift --repo ~/src/live --accounts livegate.hcl",
      "  livegate drift --reconcile --auto-approve --state-dir ~/.livegate"
    },
    mixinStandardHelpOptions = true,
    description = {
      "Plans every unit of the checked-out trunk head with -detailed-exitcode (plan role only,"
          + " nothing is applied) and reports the units whose plan shows changes, with each changed"
          + " resource. A unit that cannot be planned is an error, never \"no drift\".",
      "With --reconcile, the drifted units are then deployed as a drift reconcile through the"
          + " local gate (plan, vote, apply), queued like a merge; the local options below apply to it.",
      "Exit code: 0 no drift, 2 drift, 1 a unit could not be planned (or bad input). With"
          + " --reconcile: 0 no drift or every drifted unit re-applied, 1 otherwise."
    })
final class DriftCli implements Callable<Integer> {
  /** Drift found, every unit planned. */
  static final int EXIT_DRIFT = 2;

  enum Format {
    text,
    json,
    html
  }

  @ParentCommand private Livegate livegate;
  @Spec private CommandSpec spec;

  @Option(
      names = "--repo",
      paramLabel = "DIR",
      defaultValue = ".",
      description = "The live repository, with --head checked out (default: ${DEFAULT-VALUE}).")
  private Path repo;

  @Option(
      names = "--head",
      paramLabel = "REV",
      defaultValue = "HEAD",
      description = "The trunk head to plan; must be checked out (default: ${DEFAULT-VALUE}).")
  private String head;

  @Option(
      names = "--accounts",
      paramLabel = "FILE",
      description =
          "Accounts file (docs/accounts.md): each unit plans with its account's plan_role.")
  private Path accountsFile;

  @Option(
      names = "--format",
      paramLabel = "text|json|html",
      defaultValue = "text",
      description =
          "Output format (default: ${DEFAULT-VALUE}); json is in docs/drift.md, html a page.")
  private Format format;

  @Mixin private LocalOptions local;
  @Mixin private RunOptions run;

  @Option(
      names = "--reconcile",
      description =
          "Deploy the drifted units (only those) through the local gate: plan, vote, apply.")
  private boolean reconcile;

  @Option(
      names = {"-q", "--quiet"},
      description = "No progress lines on stderr.")
  private boolean quiet;

  @Override
  public Integer call() {
    if (run.autoApprove && !reconcile) {
      throw new LivegateException("--auto-approve votes on a reconcile: pass --reconcile with it");
    }
    RunnerArgv kind = run.kind();
    LocalRun.requireTool(kind, livegate.environment());
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    ProgressListener progress =
        quiet
            ? ProgressListener.silent()
            : message -> {
              err.println("livegate: " + message);
              err.flush();
            };
    Accounts accounts = LocalRun.withLocalVoter(AccountsFiles.read(accountsFile));
    int parallelism = local.settings(run.autoApprove).parallelism();
    Sandbox sandbox = LocalWiring.sandbox(local.stateDirectory()).keepingReadOnly(repo);
    err.println("livegate: " + sandbox.description());
    err.flush();
    DriftReport report =
        new DriftScan(
                new SandboxedPlan.Tools(
                    new ProcessCommandRunner(), kind, sandbox, Map.of("TF_IN_AUTOMATION", "1")),
                progress)
            .run(
                ScanCommand.builder(repo, accounts)
                    .head(head)
                    .everyUnit()
                    .environment(RunnerEnvironment.allowed(livegate.environment()))
                    .sources(local.sources.inStateDirectory(local.stateDirectory()))
                    .parallelism(parallelism)
                    // The terragrunt that plans the units decides how skip and exclude read.
                    .terragruntVersion(
                        TerragruntVersions.forRunner(
                            kind,
                            livegate.environment(),
                            new ProcessCommandRunner(),
                            progress::progress))
                    .build());
    out.print(
        switch (format) {
          case text -> DriftReportFormat.text(report);
          case json -> DriftReportFormat.write(report);
          case html -> DriftReportFormat.html(report);
        });
    out.flush();
    if (reconcile && !report.drifted().isEmpty()) {
      // The report is the only thing on stdout in json and html: the reconcile's lines (status
      // page, unit lines, summary) go to stderr there, so the output stays one valid document.
      PrintWriter reconcileOut = format == Format.text ? out : err;
      int reconciled = reconcile(report, accounts, kind, parallelism, reconcileOut, progress);
      return report.errors().isEmpty() ? reconciled : Livegate.EXIT_FAILURE;
    }
    if (!report.errors().isEmpty()) {
      return Livegate.EXIT_FAILURE;
    }
    return report.drifted().isEmpty() ? 0 : EXIT_DRIFT;
  }

  /** Queues the drift reconcile and runs it to its end; returns the deployment's exit code. */
  private int reconcile(
      DriftReport report,
      Accounts accounts,
      RunnerArgv kind,
      int parallelism,
      PrintWriter out,
      ProgressListener progress) {
    Optional<SmtpRelay> smtp = local.smtp(livegate.environment());
    try (LocalWiring wiring =
        new LocalWiring(local.stateDirectory(), local.sources::inStateDirectory)) {
      wiring.mailThrough(smtp);
      // A port in use must fail before the reconcile is recorded as running.
      wiring.server(local.port);
      Deployment deployment =
          LocalRun.queueReconcile(
              wiring,
              repo,
              head,
              report,
              "local-" + UUID.randomUUID(),
              accounts,
              kind,
              livegate.environment(),
              parallelism,
              progress);
      return LocalRun.run(
          wiring, deployment, kind, local, run.autoApprove, LocalRun.LOCAL_OPERATOR::equals, out);
    }
  }
}
