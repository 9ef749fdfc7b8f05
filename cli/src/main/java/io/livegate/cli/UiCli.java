package io.livegate.cli;

import io.livegate.cli.local.UiServer;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code livegate ui}: the console of a state directory, read-only, while or after a run. */
@Command(
    name = "ui",
    mixinStandardHelpOptions = true,
    footerHeading = "%nExamples:%n",
    footer = {
      "  livegate ui --state-dir ~/.livegate",
      "  livegate ui --state-dir /tmp/state --port 0"
    },
    description = {
      "Serves the console of a state directory on 127.0.0.1: its deployments, each one's units by"
          + " layer, and each unit's plan, log, votes and timings. Pages of a running deployment"
          + " update in place.",
      "It only reads: it works while a run holds the state directory, holds the directory itself"
          + " only while it answers a page (a deploy can start beside it), and never creates one."
          + " Ctrl-C stops it."
    })
final class UiCli implements Callable<Integer> {
  @Spec private CommandSpec spec;

  @Option(
      names = "--state-dir",
      paramLabel = "DIR",
      description = "The state directory (default: ~/.livegate).")
  private Path stateDir;

  @Option(
      names = "--port",
      paramLabel = "N",
      defaultValue = "8742",
      description = "Port on 127.0.0.1; 0 picks a free one (default: ${DEFAULT-VALUE}).")
  private int port;

  @Override
  public Integer call() throws InterruptedException {
    Path directory = stateDir != null ? stateDir : LocalOptions.defaultStateDirectory();
    UiServer ui = UiServer.start(directory, port);
    Runtime.getRuntime().addShutdownHook(new Thread(ui::close, "livegate-ui-stop"));
    PrintWriter out = spec.commandLine().getOut();
    out.println("console: " + ui.baseUrl() + "/");
    out.println(
        ui.attached()
            ? "reading what the run using " + directory + " records, as it records it"
            : "reading "
                + directory
                + " while it answers a page; a deploy on it can start beside this");
    out.flush();
    new CountDownLatch(1).await();
    return 0;
  }
}
