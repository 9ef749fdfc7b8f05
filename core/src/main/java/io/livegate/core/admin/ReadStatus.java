package io.livegate.core.admin;

import com.fasterxml.jackson.core.JsonProcessingException;
import io.livegate.core.Jackson;
import io.livegate.core.LivegateException;
import io.livegate.core.deploy.Deployment;
import io.livegate.core.deploy.DeploymentStore;
import io.livegate.core.deploy.Execution;
import io.livegate.core.deploy.ExecutionStore;
import io.livegate.core.runner.ExecutionLogs;
import io.livegate.core.vote.VoteStore;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * {@code livegate status}: what the metadb holds of the deployments, why they failed and where each
 * failed execution's log is kept, or one unit's kept log. The same use case reads the local state
 * directory and, in the admin Lambda, the metadb on AWS with the logs in S3; both answer the same
 * lines.
 */
public final class ReadStatus {
  private final DeploymentStore deployments;
  private final ExecutionStore executions;
  private final VoteStore votes;
  private final ExecutionLogs logs;
  private final String place;

  /**
   * @param place where the deployments are, for messages: "in /var/lib/livegate", "on AWS"
   */
  public ReadStatus(
      DeploymentStore deployments,
      ExecutionStore executions,
      VoteStore votes,
      ExecutionLogs logs,
      String place) {
    this.deployments = deployments;
    this.executions = executions;
    this.votes = votes;
    this.logs = logs;
    this.place = place;
  }

  /**
   * The lines {@code status} prints; not done (the lines saying why) when there is no such
   * deployment, or no such unit in it.
   */
  public AdminResult run(AdminCommand.Status status) {
    Optional<List<DeploymentReport>> reports = reports(status.deployment());
    if (reports.isEmpty()) {
      return new AdminResult(
          List.of("there is no deployment " + status.deployment().getAsLong() + " " + place),
          false);
    }
    if (status.log().isPresent()) {
      return log(reports.get().get(0), status.log().get());
    }
    if (status.json()) {
      return new AdminResult(json(document(reports.get())).lines().toList(), true);
    }
    List<String> lines = new ArrayList<>();
    if (reports.get().isEmpty()) {
      lines.add("no deployments " + place);
    }
    for (DeploymentReport report : reports.get()) {
      lines.addAll(text(report));
      lines.add("");
    }
    return new AdminResult(lines, true);
  }

  /** The reports of every deployment, or of {@code deployment} only; empty when it is not there. */
  public Optional<List<DeploymentReport>> reports(OptionalLong deployment) {
    List<Deployment> chosen;
    if (deployment.isEmpty()) {
      chosen = deployments.all();
    } else {
      Optional<Deployment> found = deployments.find(deployment.getAsLong());
      if (found.isEmpty()) {
        return Optional.empty();
      }
      chosen = List.of(found.get());
    }
    List<DeploymentReport> reports = new ArrayList<>();
    for (Deployment each : chosen) {
      reports.add(DeploymentReport.of(deployments, executions, votes, each.id()));
    }
    return Optional.of(reports);
  }

  /** The {@code status --json} document of {@code reports}. */
  public Map<String, Object> document(List<DeploymentReport> reports) {
    Map<String, Object> document = new LinkedHashMap<>();
    document.put("deployments", reports.stream().map(report -> report.json(logs)).toList());
    return document;
  }

  /** {@code document} as the indented JSON {@code status --json} prints. */
  public static String json(Map<String, Object> document) {
    try {
      return Jackson.INDENTED.writeValueAsString(document);
    } catch (JsonProcessingException e) {
      throw new LivegateException("cannot write the status as JSON: " + e.getMessage(), e);
    }
  }

  /** The kept log of each execution of {@code unit} in the report's deployment (and rollback). */
  private AdminResult log(DeploymentReport report, String unit) {
    long id = report.deployment().id();
    List<Execution> ofUnit =
        report.view().executions().stream().filter(e -> e.unit().equals(unit)).toList();
    if (ofUnit.isEmpty()) {
      return new AdminResult(
          List.of(
              "deployment "
                  + id
                  + " has no unit "
                  + unit
                  + "; its units: "
                  + String.join(
                      ", ",
                      report.view().executions().stream()
                          .map(Execution::unit)
                          .distinct()
                          .toList())),
          false);
    }
    List<String> lines = new ArrayList<>();
    for (Execution execution : ofUnit) {
      String label = DeploymentReport.label(execution);
      Optional<String> log = logs.read(execution.name());
      if (log.isEmpty()) {
        lines.add(
            "no log was kept for "
                + label
                + " in deployment "
                + id
                + " (status "
                + execution.status().id()
                + "): none of its commands has run");
        continue;
      }
      lines.add(
          "log of " + label + " in deployment " + id + ": " + logs.location(execution.name()));
      lines.addAll(log.get().lines().toList());
    }
    return new AdminResult(lines, true);
  }

  private List<String> text(DeploymentReport report) {
    Deployment deployment = report.deployment();
    List<String> text = new ArrayList<>();
    text.add("deployment " + deployment.id() + ": " + deployment.status().id());
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
      reason.stream().skip(1).forEach(row -> text.add("              " + row.strip()));
      failure.log(logs).ifPresent(location -> line(text, "log", location));
    }
    SummaryTable.render(report.view())
        .lines()
        .limit(report.view().executions().size() + 1L)
        .forEach(row -> text.add("  " + row));
    return text;
  }

  private static void line(List<String> text, String label, String value) {
    text.add(String.format("  %-11s %s", label, value));
  }

  private static String shortSha(String sha) {
    return sha.substring(0, Math.min(12, sha.length()));
  }
}
