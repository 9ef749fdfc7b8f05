package io.livegate.cli;

import io.livegate.core.ProgressListener;
import io.livegate.core.drift.DriftReport;
import io.livegate.core.drift.DriftReportFormat;
import io.livegate.core.runner.RunnerKind;
import io.livegate.core.scan.DriftScan;
import io.livegate.core.scan.ScanCommand;
import io.livegate.process.ProcessCommandRunner;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/** {@code livegate drift}: plans every unit at the trunk head and reports what drifted. */
@Command(
    name = "drift",
    mixinStandardHelpOptions = true,
    description = {
      "Plans every unit of the checked-out trunk head with -detailed-exitcode (plan role only,"
          + " nothing is applied) and reports the units whose plan shows changes, with each changed"
          + " resource. A unit that cannot be planned is an error, never \"no drift\".",
      "Exit code: 0 no drift, 2 drift, 1 a unit could not be planned (or bad input)."
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

  @Option(
      names = "--runner",
      paramLabel = "terraform|terragrunt",
      defaultValue = "terragrunt",
      description = "What plans each unit (default: ${DEFAULT-VALUE}).")
  private LocalOptions.Runner runner;

  @Option(
      names = "--parallelism",
      paramLabel = "N",
      description = "Units planned at once (default: the number of cores).")
  private Integer parallelism;

  @Option(
      names = {"-q", "--quiet"},
      description = "No progress lines on stderr.")
  private boolean quiet;

  @Override
  public Integer call() {
    RunnerKind kind = LocalOptions.kind(runner);
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
    DriftReport report =
        new DriftScan(new ProcessCommandRunner(), kind, Map.of("TF_IN_AUTOMATION", "1"), progress)
            .run(
                new ScanCommand(
                    repo,
                    null,
                    head,
                    AccountsFiles.read(accountsFile),
                    true,
                    ScanCommand.DEFAULT_FILE_PATTERN,
                    livegate.environment(),
                    parallelism == null
                        ? Runtime.getRuntime().availableProcessors()
                        : parallelism));
    out.print(
        switch (format) {
          case text -> DriftReportFormat.text(report);
          case json -> DriftReportFormat.write(report);
          case html -> DriftReportFormat.html(report);
        });
    out.flush();
    if (!report.errors().isEmpty()) {
      return Livegate.EXIT_FAILURE;
    }
    return report.drifted().isEmpty() ? 0 : EXIT_DRIFT;
  }
}
