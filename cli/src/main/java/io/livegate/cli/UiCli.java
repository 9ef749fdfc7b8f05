package io.livegate.cli;

import io.livegate.aws.LambdaAdmin;
import io.livegate.cli.local.LambdaUiServer;
import io.livegate.cli.local.UiServer;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code livegate ui}: the console of a state directory, read-only, while or after a run; with
 * {@code --aws}, of an installation on AWS through its admin Lambda.
 */
@Command(
    name = "ui",
    mixinStandardHelpOptions = true,
    footerHeading = "%nExamples:%n",
    footer = {
      "  livegate ui --state-dir ~/.livegate",
      "  livegate ui --state-dir /tmp/state --port 0",
      "  livegate ui --aws --function livegate-admin --region eu-west-1"
    },
    description = {
      "Serves the console of a state directory on 127.0.0.1: its deployments, each one's units by"
          + " layer, and each unit's plan, log, votes and timings. Pages of a running deployment"
          + " update in place.",
      "It only reads: it works while a run holds the state directory, holds the directory itself"
          + " only while it answers a page (a deploy can start beside it), and never creates one."
          + " Ctrl-C stops it.",
      "With --aws it serves the same pages of an installation on AWS, each read through its admin"
          + " Lambda with your AWS credentials (no endpoint is opened on AWS); unit pages there show"
          + " the plan's counts and log, not the plan's text."
    })
final class UiCli implements Callable<Integer> {
  @Spec private CommandSpec spec;

  @ArgGroup(exclusive = true)
  private AdminCli.Where where = new AdminCli.Where();

  @Option(
      names = "--port",
      paramLabel = "N",
      defaultValue = "8742",
      description = "Port on 127.0.0.1; 0 picks a free one (default: ${DEFAULT-VALUE}).")
  private int port;

  @Override
  public Integer call() throws InterruptedException {
    PrintWriter out = spec.commandLine().getOut();
    AutoCloseable served;
    if (where != null && where.aws != null) {
      AdminCli.Aws aws = where.aws;
      LambdaUiServer ui =
          LambdaUiServer.start(
              LambdaAdmin.connect(
                  aws.function, Optional.ofNullable(aws.region), Optional.ofNullable(aws.endpoint)),
              port);
      served = ui;
      out.println("console: " + ui.baseUrl() + "/");
      out.println("reading each page through the admin Lambda " + aws.function);
    } else {
      Path directory =
          where != null && where.stateDir != null
              ? where.stateDir
              : LocalOptions.defaultStateDirectory();
      UiServer ui = UiServer.start(directory, port);
      served = ui;
      out.println("console: " + ui.baseUrl() + "/");
      out.println(
          ui.attached()
              ? "reading what the run using " + directory + " records, as it records it"
              : "reading "
                  + directory
                  + " while it answers a page; a deploy on it can start beside this");
    }
    out.flush();
    Thread stop = new Thread(() -> closeQuietly(served), "livegate-ui-stop");
    Runtime.getRuntime().addShutdownHook(stop);
    try {
      new CountDownLatch(1).await();
    } finally {
      // Interrupted (a caller that embeds the CLI, a test): stop serving now, not at exit.
      Runtime.getRuntime().removeShutdownHook(stop);
      closeQuietly(served);
    }
    return 0;
  }

  private static void closeQuietly(AutoCloseable served) {
    try {
      served.close();
    } catch (Exception e) {
      // stopping: nothing is left to tell
    }
  }
}
