package io.livegate.cli;

import io.livegate.aws.LambdaAdmin;
import io.livegate.cli.local.LocalWiring;
import io.livegate.cli.local.StateDirectoryLock;
import io.livegate.core.admin.AdminCommand;
import io.livegate.core.admin.AdminResult;
import java.io.PrintWriter;
import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code livegate admin}: the operator's commands for a stuck queue (docs/operations.md), on the
 * local state directory or, with {@code --aws}, through the admin Lambda. Each subcommand builds
 * one {@link AdminCommand}; both backends run it with the same use case and print the same lines,
 * and the command exits 1 when it did nothing.
 */
@Command(
    name = "admin",
    footerHeading = "%nExamples:%n",
    footer = {
      "  livegate admin queue --state-dir /var/lib/livegate",
      "  livegate admin abort 7 --reason \"bad merge\" --state-dir /var/lib/livegate",
      "  livegate admin queue --aws --function livegate-admin"
    },
    mixinStandardHelpOptions = true,
    description =
        "Operator commands for the merge queue and lock: of the local state directory, or with"
            + " --aws of an installation on AWS (through its admin Lambda).",
    subcommands = {
      AdminCli.Queue.class,
      AdminCli.RetryScan.class,
      AdminCli.Abort.class,
      AdminCli.ReleaseLock.class,
      AdminCli.ResolveRollback.class
    })
final class AdminCli {
  /** Where the command runs: the local state directory, or the admin Lambda on AWS. */
  static final class Where {
    @Option(
        names = "--state-dir",
        paramLabel = "DIR",
        description = "The state directory (default: ~/.livegate).")
    Path stateDir;

    @ArgGroup(exclusive = false)
    Aws aws;
  }

  /** {@code --aws} and the options that only it takes. */
  static final class Aws {
    @Option(
        names = "--aws",
        required = true,
        description = "Run it on AWS: invoke the admin Lambda with your AWS credentials.")
    boolean aws;

    @Option(
        names = "--function",
        required = true,
        paramLabel = "NAME",
        description = "The admin Lambda: the stack output AdminFunctionName.")
    String function;

    @Option(
        names = "--region",
        paramLabel = "REGION",
        description = "Its region (default: the AWS SDK's, e.g. AWS_REGION or your profile's).")
    String region;

    @Option(
        names = "--endpoint-url",
        paramLabel = "URL",
        description = "Call Lambda at this URL instead of the region's (a VPC endpoint).")
    URI endpoint;
  }

  /** What every admin subcommand shares: where it runs, and how its result is printed. */
  abstract static class AdminSubcommand implements Callable<Integer> {
    @Spec CommandSpec spec;

    @ArgGroup(exclusive = true)
    Where where = new Where();

    /** The command this subcommand's arguments make. */
    abstract AdminCommand command();

    @Override
    public Integer call() {
      AdminCommand command = command();
      Optional<AdminResult> result =
          where != null && where.aws != null ? Optional.of(onAws(command)) : locally(command);
      if (result.isEmpty()) {
        return Livegate.EXIT_FAILURE;
      }
      PrintWriter out = spec.commandLine().getOut();
      result.get().lines().forEach(out::println);
      return result.get().done() ? 0 : Livegate.EXIT_FAILURE;
    }

    private AdminResult onAws(AdminCommand command) {
      Aws aws = where.aws;
      try (LambdaAdmin lambda =
          LambdaAdmin.connect(
              aws.function, Optional.ofNullable(aws.region), Optional.ofNullable(aws.endpoint))) {
        return lambda.run(command);
      }
    }

    /** Runs on the state directory; empty (after saying why) while a run is using it. */
    private Optional<AdminResult> locally(AdminCommand command) {
      Path directory =
          where != null && where.stateDir != null
              ? where.stateDir
              : Path.of(System.getProperty("user.home"), ".livegate");
      try (LocalWiring wiring = new LocalWiring(directory)) {
        // What the engine logs on the way (a deployment that took the lock without its stack)
        // comes before the command's own answer.
        List<String> lines = new ArrayList<>();
        AdminResult result = wiring.admin(lines::add).run(command);
        lines.addAll(result.lines());
        return Optional.of(new AdminResult(lines, result.done()));
      } catch (StateDirectoryLock.Busy busy) {
        spec.commandLine()
            .getErr()
            .println(
                "a livegate run is using "
                    + directory
                    + " ("
                    + busy.holder()
                    + "); stop it, then run this again");
        return Optional.empty();
      }
    }
  }

  @Command(
      name = AdminCommand.Queue.NAME,
      footerHeading = "%nExamples:%n",
      footer = "  livegate admin queue --state-dir /var/lib/livegate",
      mixinStandardHelpOptions = true,
      description = "What holds each repository's merge lock, and what waits behind it.")
  static final class Queue extends AdminSubcommand {
    @Override
    AdminCommand command() {
      return new AdminCommand.Queue();
    }
  }

  @Command(
      name = AdminCommand.RetryScan.NAME,
      footerHeading = "%nExamples:%n",
      footer = "  livegate admin retry-scan 7 --aws --function livegate-admin",
      mixinStandardHelpOptions = true,
      description =
          "Launch again the scan of a deployment that holds the lock but whose scan never"
              + " reported. On AWS the launch carries the deployment's client token, so a scan"
              + " task that is still running is not started twice; locally the next livegate"
              + " serve scans it.")
  static final class RetryScan extends AdminSubcommand {
    @Parameters(index = "0", paramLabel = "DEPLOYMENT")
    long deployment;

    @Override
    AdminCommand command() {
      return new AdminCommand.RetryScan(deployment);
    }
  }

  @Command(
      name = AdminCommand.Abort.NAME,
      footerHeading = "%nExamples:%n",
      footer = "  livegate admin abort 7 --reason \"bad merge\" --state-dir /var/lib/livegate",
      mixinStandardHelpOptions = true,
      description =
          "Abort a running deployment: its waiting and planning units are aborted, it fails and"
              + " the next merge takes the lock. A unit that is applying is left to finish.")
  static final class Abort extends AdminSubcommand {
    @Parameters(index = "0", paramLabel = "DEPLOYMENT")
    long deployment;

    @Option(names = "--reason", defaultValue = AdminCommand.Abort.NO_REASON, paramLabel = "TEXT")
    String reason;

    @Override
    AdminCommand command() {
      return new AdminCommand.Abort(deployment, reason);
    }
  }

  @Command(
      name = AdminCommand.ReleaseLock.NAME,
      footerHeading = "%nExamples:%n",
      footer = "  livegate admin release-lock /home/me/src/live --state-dir /var/lib/livegate",
      mixinStandardHelpOptions = true,
      description =
          "Release a merge lock that no unfinished deployment holds, and start the next merge.")
  static final class ReleaseLock extends AdminSubcommand {
    @Parameters(index = "0", paramLabel = "REPOSITORY")
    String repository;

    @Override
    AdminCommand command() {
      return new AdminCommand.ReleaseLock(repository);
    }
  }

  @Command(
      name = AdminCommand.ResolveRollback.NAME,
      footerHeading = "%nExamples:%n",
      footer = "  livegate admin resolve-rollback 42 --state-dir /var/lib/livegate",
      mixinStandardHelpOptions = true,
      description =
          "After repairing by hand what a failed rollback left: its deployment fails and the next"
              + " merge takes the lock.")
  static final class ResolveRollback extends AdminSubcommand {
    @Parameters(index = "0", paramLabel = "EXECUTION")
    long execution;

    @Override
    AdminCommand command() {
      return new AdminCommand.ResolveRollback(execution);
    }
  }
}
