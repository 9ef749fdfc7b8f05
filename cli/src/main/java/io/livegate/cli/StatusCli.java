package io.livegate.cli;

import io.livegate.aws.LambdaAdmin;
import io.livegate.cli.local.FileExecutionLogs;
import io.livegate.cli.local.StateReader;
import io.livegate.core.LivegateException;
import io.livegate.core.admin.AdminCommand;
import io.livegate.core.admin.AdminResult;
import io.livegate.core.admin.DeploymentReport;
import io.livegate.core.admin.ReadStatus;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.Callable;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code livegate status}: the deployments, their executions, why they failed and where their logs
 * are kept, or one unit's kept log; read from the local state directory while or after a run
 * ({@link StateReader}), or with {@code --aws} through the admin Lambda ({@link ReadStatus} both).
 */
@Command(
    name = "status",
    mixinStandardHelpOptions = true,
    footerHeading = "%nExamples:%n",
    footer = {
      "  livegate status --state-dir ~/.livegate",
      "  livegate status 3 --state-dir ~/.livegate",
      "  livegate status 3 --log app/db --state-dir ~/.livegate",
      "  livegate status --json --state-dir ~/.livegate",
      "  livegate status 3 --log app/db --aws --function livegate-admin"
    },
    description = {
      "Shows the deployments in the state directory: id, status, trigger, commits, timestamps, why"
          + " they failed, where each failed unit's log is kept, and each unit's status, duration"
          + " and plan. With --log UNIT it prints that unit's kept log (plan, apply, destroy and"
          + " rollback output) instead.",
      "It only reads: it works while a run holds the state directory, and never creates one. With"
          + " --aws it reads an installation on AWS through its admin Lambda (logs kept in S3)."
    })
final class StatusCli implements Callable<Integer> {
  @Spec private CommandSpec spec;

  @Parameters(
      index = "0",
      arity = "0..1",
      paramLabel = "ID",
      description = "Show only this deployment.")
  private Long deploymentId;

  @ArgGroup(exclusive = true)
  private AdminCli.Where where = new AdminCli.Where();

  @Option(names = "--json", description = "Print JSON, for scripts.")
  private boolean json;

  @Option(
      names = "--log",
      paramLabel = "UNIT",
      description = "Print the kept log of this unit of deployment ID (and of its rollback).")
  private String log;

  @Override
  public Integer call() {
    AdminCommand.Status status =
        new AdminCommand.Status(
            deploymentId == null ? OptionalLong.empty() : OptionalLong.of(deploymentId),
            json,
            Optional.ofNullable(log));
    AdminResult result = where != null && where.aws != null ? onAws(status) : locally(status);
    if (!result.done()) {
      throw new LivegateException(String.join("\n", result.lines()));
    }
    PrintWriter out = spec.commandLine().getOut();
    result.lines().forEach(out::println);
    return 0;
  }

  private AdminResult onAws(AdminCommand.Status status) {
    AdminCli.Aws aws = where.aws;
    try (LambdaAdmin lambda =
        LambdaAdmin.connect(
            aws.function, Optional.ofNullable(aws.region), Optional.ofNullable(aws.endpoint))) {
      return lambda.run(status);
    }
  }

  private AdminResult locally(AdminCommand.Status status) {
    Path directory =
        where != null && where.stateDir != null
            ? where.stateDir
            : LocalOptions.defaultStateDirectory();
    try (StateReader state = StateReader.open(directory)) {
      state
          .holder()
          .ifPresent(
              holder ->
                  spec.commandLine()
                      .getErr()
                      .println(
                          "livegate: a run is using "
                              + state.root()
                              + " ("
                              + holder
                              + "); this is what it has recorded so far"));
      ReadStatus read =
          new ReadStatus(
              state.deployments(),
              state.executions(),
              state.votes(),
              new FileExecutionLogs(state.root().resolve("logs")),
              "in " + state.root());
      if (!status.json()) {
        return read.run(status);
      }
      Optional<List<DeploymentReport>> reports = read.reports(status.deployment());
      if (reports.isEmpty()) {
        return read.run(status);
      }
      // The local document says which state directory it read.
      Map<String, Object> document = new LinkedHashMap<>();
      document.put("stateDirectory", state.root().toString());
      document.putAll(read.document(reports.get()));
      return new AdminResult(ReadStatus.json(document).lines().toList(), true);
    }
  }
}
