package io.livegate.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.livegate.cli.local.DeploymentReport;
import io.livegate.cli.local.StateReader;
import io.livegate.cli.local.SummaryTable;
import io.livegate.core.LivegateException;
import io.livegate.core.deploy.Deployment;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code livegate status}: the local deployments, their executions and why they failed, read while
 * or after a run ({@link StateReader}).
 */
@Command(
    name = "status",
    mixinStandardHelpOptions = true,
    footerHeading = "%nExamples:%n",
    footer = {
      "  livegate status --state-dir ~/.livegate",
      "  livegate status 3 --state-dir ~/.livegate",
      "  livegate status --json --state-dir ~/.livegate"
    },
    description = {
      "Shows the deployments in the state directory: id, status, trigger, commits, timestamps, why"
          + " they failed, and each unit's status, duration and plan.",
      "It only reads: it works while a run holds the state directory, and never creates one."
    })
final class StatusCli implements Callable<Integer> {
  private static final ObjectMapper JSON =
      new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

  @Spec private CommandSpec spec;

  @Parameters(
      index = "0",
      arity = "0..1",
      paramLabel = "ID",
      description = "Show only this deployment.")
  private Long deploymentId;

  @Option(
      names = "--state-dir",
      paramLabel = "DIR",
      description = "The state directory (default: ~/.livegate).")
  private Path stateDir;

  @Option(names = "--json", description = "Print JSON, for scripts.")
  private boolean json;

  @Override
  public Integer call() throws JsonProcessingException {
    Path directory = stateDir != null ? stateDir : LocalOptions.defaultStateDirectory();
    PrintWriter out = spec.commandLine().getOut();
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
      List<Deployment> deployments =
          deploymentId == null
              ? state.deployments().all()
              : List.of(
                  state
                      .deployments()
                      .find(deploymentId)
                      .orElseThrow(
                          () ->
                              new LivegateException(
                                  "there is no deployment "
                                      + deploymentId
                                      + " in "
                                      + state.root())));
      List<DeploymentReport> reports = new ArrayList<>();
      for (Deployment deployment : deployments) {
        reports.add(
            DeploymentReport.of(
                state.deployments(), state.executions(), state.votes(), deployment.id()));
      }
      if (json) {
        Map<String, Object> document = new LinkedHashMap<>();
        document.put("stateDirectory", state.root().toString());
        document.put("deployments", reports.stream().map(DeploymentReport::json).toList());
        out.println(JSON.writeValueAsString(document));
        return 0;
      }
      if (reports.isEmpty()) {
        out.println("no deployments in " + state.root());
      }
      for (DeploymentReport report : reports) {
        out.print(text(report, state.root().resolve("logs")));
        out.println();
      }
      return 0;
    }
  }

  private static String text(DeploymentReport report, Path logs) {
    Deployment deployment = report.deployment();
    StringBuilder text = new StringBuilder();
    text.append("deployment ")
        .append(deployment.id())
        .append(": ")
        .append(deployment.status().id())
        .append('\n');
    line(text, "repository", deployment.pullRequest().repository());
    line(text, "trigger", report.trigger());
    line(
        text,
        "commits",
        shortSha(deployment.pullRequest().baseCommit())
            + ".."
            + shortSha(deployment.pullRequest().mergeCommit()));
    line(text, "queued", String.valueOf(deployment.createdAt()));
    if (deployment.startedAt() != null) {
      line(text, "started", deployment.startedAt().toString());
    }
    if (deployment.finishedAt() != null) {
      line(
          text,
          "finished",
          deployment.finishedAt()
              + " (took "
              + DeploymentReport.duration(deployment.startedAt(), deployment.finishedAt())
              + ")");
    }
    for (DeploymentReport.Failure failure : report.failures()) {
      // terraform's error runs over many lines: each is indented under the unit
      List<String> reason = failure.reason().lines().filter(row -> !row.isBlank()).toList();
      line(text, "failed", failure.unit() + ": " + (reason.isEmpty() ? "" : reason.get(0)));
      reason.stream()
          .skip(1)
          .forEach(row -> text.append("              ").append(row.strip()).append('\n'));
      Path log = logs.resolve(failure.executionName() + ".log");
      if (Files.exists(log)) {
        line(text, "log", log.toString());
      }
    }
    SummaryTable.render(report.view())
        .lines()
        .limit(report.view().executions().size() + 1L)
        .forEach(row -> text.append("  ").append(row).append('\n'));
    return text.toString();
  }

  private static void line(StringBuilder text, String label, String value) {
    text.append(String.format("  %-11s %s%n", label, value));
  }

  private static String shortSha(String sha) {
    return sha.substring(0, Math.min(12, sha.length()));
  }
}
