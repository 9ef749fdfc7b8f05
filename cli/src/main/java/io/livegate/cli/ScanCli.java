package io.livegate.cli;

import io.livegate.cli.local.LocalWiring;
import io.livegate.cli.render.GraphRenderer;
import io.livegate.cli.render.TextRenderer;
import io.livegate.core.LivegateException;
import io.livegate.core.ProgressListener;
import io.livegate.core.runner.RunnerArgv;
import io.livegate.core.runner.Sandbox;
import io.livegate.core.runner.Shutdown;
import io.livegate.core.stack.DeployStack;
import io.livegate.core.stack.DeployStackJson;
import io.livegate.process.ProcessCommandRunner;
import io.livegate.process.RunnerEnvironment;
import io.livegate.scan.GraphScan;
import io.livegate.scan.PlanScan;
import io.livegate.scan.SandboxedPlan;
import io.livegate.scan.ScanCommand;
import io.livegate.scan.terragrunt.TerragruntVersion;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/** {@code livegate scan}: which units a merge must deploy, and in what order. */
@Command(
    name = "scan",
    footerHeading = "%nExamples:%n",
    footer = {
      "  livegate scan --repo ~/src/live --base main~1",
      "  livegate scan --all --format mermaid",
      "  livegate scan --base main~1 --accounts livegate.hcl --format json"
    },
    mixinStandardHelpOptions = true,
    description = {
      "Works out which Terragrunt units a merge changes, adds every unit that depends on them,"
          + " and prints them in deploy order (layers).",
      "Reads the committed configs at --head with livegate's own HCL reader; never runs terragrunt"
          + " unless --scan plan is given."
    })
final class ScanCli implements Callable<Integer> {
  enum Format {
    text,
    json,
    dot,
    mermaid
  }

  enum Mode {
    graph,
    plan
  }

  enum Runner {
    terragrunt,
    terraform
  }

  @ParentCommand private Livegate livegate;

  @Spec private CommandSpec spec;

  @Option(
      names = "--repo",
      paramLabel = "DIR",
      defaultValue = ".",
      description = "The live repository (default: ${DEFAULT-VALUE}).")
  private Path repo;

  @Option(
      names = "--base",
      paramLabel = "REV",
      description = "The revision before the merge, e.g. HEAD~1. Required unless --all.")
  private String base;

  @Option(
      names = "--head",
      paramLabel = "REV",
      defaultValue = "HEAD",
      description = "The merge revision (default: ${DEFAULT-VALUE}).")
  private String head;

  @Option(
      names = "--accounts",
      paramLabel = "FILE",
      description =
          "Accounts file (docs/accounts.md). Without it the whole repository is one account.")
  private Path accountsFile;

  @Option(
      names = "--scan",
      paramLabel = "graph|plan",
      defaultValue = "graph",
      description =
          "graph: from changed files (default). plan: from plans with -detailed-exitcode.")
  private Mode mode;

  @Option(
      names = "--format",
      paramLabel = "text|json|dot|mermaid",
      defaultValue = "text",
      description = "Output format (default: ${DEFAULT-VALUE}).")
  private Format format;

  @Option(names = "--all", description = "Treat every unit as changed, to print the whole graph.")
  private boolean all;

  @Option(
      names = "--file-pattern",
      paramLabel = "REGEX",
      defaultValue = ".+\\.(hcl|tf|tfvars|json)",
      description =
          "Which changed files in a unit's directory count when its terraform runs elsewhere (a"
              + " terraform.source) and nothing reads them by name, matched against the whole"
              + " repo-relative path, newlines included (default: ${DEFAULT-VALUE}). Files a unit"
              + " reads, and every file of the directory its terraform runs in or of a local"
              + " module it calls, always count.")
  private String filePattern;

  @Option(
      names = "--allow-partial",
      description =
          "Report units that cannot be resolved under warnings and scan the rest, instead of"
              + " failing.")
  private boolean allowPartial;

  @Option(
      names = "--source-cache",
      paramLabel = "DIR",
      description =
          "Where remote stack sources (git) are fetched to and kept between scans (default:"
              + " ~/.livegate/sources, in the state directory that the sandbox hides).")
  private Path sourceCache;

  @Mixin private SourceOptions sources;

  @Option(
      names = "--terragrunt-version",
      paramLabel = "VERSION",
      description =
          "The terragrunt release the units run with, whose rules the scan applies where releases"
              + " differ (skip, exclude; docs/scanning.md). Default: what `terragrunt --version`"
              + " says, else "
              + TerragruntVersion.DEFAULT_TEXT
              + ".")
  private String terragruntVersion;

  @Option(
      names = "--allow-every-unit-left-out",
      description =
          "Warn instead of failing when exclude or skip leaves out every unit of the repository.")
  private boolean allowEveryUnitLeftOut;

  @Option(
      names = "--runner",
      paramLabel = "terragrunt|terraform",
      defaultValue = "terragrunt",
      description =
          "What --scan plan runs (default: ${DEFAULT-VALUE}; terraform runs each unit's .tf directly).")
  private Runner runner;

  @Option(
      names = "--parallelism",
      paramLabel = "N",
      description = "Units read or planned at once (default: the number of cores).")
  private Integer parallelism;

  @Option(
      names = {"-q", "--quiet"},
      description = "No progress lines on stderr.")
  private boolean quiet;

  @Override
  public Integer call() {
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    ProgressListener progress =
        quiet
            ? ProgressListener.silent()
            : message -> {
              err.println("livegate: " + message);
              err.flush();
            };
    ScanCommand command =
        ScanCommand.builder(repo, AccountsFiles.read(accountsFile))
            .base(base)
            .head(head)
            .all(all)
            .filePattern(pattern())
            // get_env() sees what terragrunt would see in the sandbox, never a LIVEGATE_* setting:
            // a stack's values are written into the checkout, where the code being planned reads
            .environment(RunnerEnvironment.allowed(livegate.environment()))
            .parallelism(
                parallelism == null ? Runtime.getRuntime().availableProcessors() : parallelism)
            .allowPartial(allowPartial)
            .sources(
                sourceCache == null
                    ? sources.inStateDirectory(LocalOptions.defaultStateDirectory())
                    : sources.access(sourceCache))
            .terragruntVersion(
                TerragruntVersions.resolve(
                    terragruntVersion,
                    livegate.environment(),
                    new ProcessCommandRunner(),
                    progress::progress))
            .everyUnitLeftOutIsWarning(allowEveryUnitLeftOut)
            .build();
    DeployStack stack =
        mode == Mode.graph
            ? new GraphScan(progress).run(command)
            : planScan(err, progress, command);
    String rendered =
        switch (format) {
          case text -> TextRenderer.render(stack);
          case json -> DeployStackJson.write(stack);
          case dot -> GraphRenderer.dot(stack);
          case mermaid -> GraphRenderer.mermaid(stack);
        };
    out.print(rendered);
    out.flush();
    return 0;
  }

  /** The plan scan runs the change's code: in the sandbox, away from the state directory. */
  private DeployStack planScan(PrintWriter err, ProgressListener progress, ScanCommand command) {
    Sandbox sandbox =
        LocalWiring.sandbox(LocalOptions.defaultStateDirectory()).keepingReadOnly(repo);
    err.println("livegate: " + sandbox.description());
    err.flush();
    ProcessCommandRunner plans = new ProcessCommandRunner();
    // Ctrl-C, SIGTERM or SIGHUP exit the JVM: its plans, in sessions of their own, would run on
    // in copies of the repository that the exit deletes. A plan changes nothing, so they are
    // interrupted at once, and the exit waits for them before the temporary files go.
    Runnable stopPlans =
        () -> {
          try {
            err.println("livegate: stopping: interrupting the running plans");
            err.flush();
            int stopped = plans.stopAll();
            err.println("livegate: stopped " + stopped + (stopped == 1 ? " plan" : " plans"));
            err.flush();
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          }
        };
    Shutdown.closing(stopPlans);
    try {
      return new PlanScan(
              new SandboxedPlan.Tools(
                  plans, runnerKind(), sandbox, Map.of("TF_IN_AUTOMATION", "1")),
              progress)
          .run(command);
    } finally {
      Shutdown.cancel(stopPlans);
    }
  }

  private RunnerArgv runnerKind() {
    return runner == Runner.terraform ? RunnerArgv.TERRAFORM : RunnerArgv.TERRAGRUNT;
  }

  private Pattern pattern() {
    try {
      return ScanCommand.filePattern(filePattern);
    } catch (PatternSyntaxException e) {
      throw new LivegateException(
          "--file-pattern is not a valid regular expression: " + e.getDescription());
    }
  }
}
