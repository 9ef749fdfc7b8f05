package io.livegate.cli;

import io.livegate.cli.local.LocalWiring;
import io.livegate.cli.local.SmtpRelay;
import io.livegate.core.ProgressListener;
import io.livegate.core.deploy.Deployment;
import io.livegate.core.runner.RunnerArgv;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/** {@code livegate deploy}: deploys a merge of your own repository on this machine. */
@Command(
    name = "deploy",
    footerHeading = "%nExamples:%n",
    footer = {
      "  livegate deploy --repo ~/src/live --base main~1 --accounts livegate.hcl",
      "  livegate deploy --base HEAD~1 --runner terraform --auto-approve --state-dir /tmp/state",
      "  livegate deploy --base main~1 --vote-timeout 2h --grace-period 90s"
    },
    mixinStandardHelpOptions = true,
    description = {
      "Deploys the units that base..head changed, and their dependents, in dependency order on this machine:"
          + " plan, vote through the pages on 127.0.0.1, apply.",
      "The metadb persists in --state-dir; an interrupted run continues with livegate resume."
    })
final class DeployCli implements Callable<Integer> {
  @ParentCommand private Livegate livegate;
  @Spec private CommandSpec spec;
  @Mixin private LocalOptions local;

  @Option(
      names = "--repo",
      paramLabel = "DIR",
      defaultValue = ".",
      description = "The live repository, with --head checked out (default: ${DEFAULT-VALUE}).")
  private Path repo;

  @Option(
      names = "--base",
      paramLabel = "REV",
      required = true,
      description = "The revision before the merge.")
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
          "Accounts file (docs/accounts.md); without it the repository is one account. Accounts without voters get operator@localhost.")
  private Path accountsFile;

  @Mixin private RunOptions run;

  @Override
  public Integer call() {
    RunnerArgv kind = run.kind();
    LocalRun.requireTool(kind, livegate.environment());
    PrintWriter out = spec.commandLine().getOut();
    ProgressListener progress =
        message -> spec.commandLine().getErr().println("livegate: " + message);
    Optional<SmtpRelay> smtp = local.smtp(livegate.environment());
    try (LocalWiring wiring =
        new LocalWiring(local.stateDirectory(), local.sources::inStateDirectory)) {
      wiring.mailThrough(smtp);
      // A port in use must fail before the deployment is recorded as running.
      wiring.server(local.port);
      Deployment deployment =
          LocalRun.queue(
              wiring,
              repo,
              base,
              head,
              LocalRun.withLocalVoter(AccountsFiles.read(accountsFile)),
              kind,
              livegate.environment(),
              local.settings(run.autoApprove).parallelism(),
              progress);
      return LocalRun.run(
          wiring, deployment, kind, local, run.autoApprove, LocalRun.LOCAL_OPERATOR::equals, out);
    }
  }
}
