package io.livegate.core.admin;

import io.livegate.core.deploy.Deployment;
import io.livegate.core.deploy.DeploymentStore;
import io.livegate.core.deploy.Execution;
import io.livegate.core.deploy.ExecutionStatus;
import io.livegate.core.deploy.ExecutionStore;
import io.livegate.core.deploy.MergedPullRequest;
import io.livegate.core.deploy.PlanSummary;
import io.livegate.core.runner.ExecutionLogs;
import io.livegate.core.vote.DeploymentView;
import io.livegate.core.vote.Vote;
import io.livegate.core.vote.VoteStore;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What an operator reads of one deployment ({@code status}, its {@code --json}, the console): the
 * view of its executions and votes, what started it, and why it failed.
 *
 * @param failures each failed execution's unit and the reason its flow recorded
 */
public record DeploymentReport(DeploymentView view, String trigger, List<Failure> failures) {
  /**
   * A failed execution and the reason its flow recorded when it failed.
   *
   * @param executionName whose log ({@link io.livegate.core.runner.ExecutionLogs}) holds the failed
   *     command's output
   */
  public record Failure(String unit, String reason, String executionName, long executionId) {
    /** Where {@code logs} keeps this execution's log, or empty when none was kept. */
    public Optional<String> log(ExecutionLogs logs) {
      return logs.read(executionName).map(kept -> logs.location(executionName));
    }
  }

  public static DeploymentReport of(
      DeploymentStore deployments, ExecutionStore executions, VoteStore votes, long deploymentId) {
    DeploymentView view = DeploymentView.of(deploymentId, deployments, executions, votes);
    List<Failure> failures = new ArrayList<>();
    for (Execution execution : view.executions()) {
      if (execution.status() == ExecutionStatus.FAILED) {
        failures.add(
            new Failure(
                label(execution),
                failureReason(executions, execution),
                execution.name(),
                execution.id()));
      }
    }
    return new DeploymentReport(view, trigger(view.deployment().pullRequest()), failures);
  }

  public Deployment deployment() {
    return view.deployment();
  }

  /** What started the deployment, in words. */
  public static String trigger(MergedPullRequest merge) {
    if (merge.reconcile()) {
      return "drift reconcile of " + merge.headRef() + " (drift run " + merge.driftRun() + ")";
    }
    if (merge.number() > 0) {
      return "merge of pull request #"
          + merge.number()
          + " ("
          + merge.headRef()
          + " into "
          + merge.baseRef()
          + ")";
    }
    return "livegate deploy of " + merge.baseRef() + ".." + merge.headRef();
  }

  /** The unit, marked when the execution is a rollback or the destroy of a deleted unit. */
  public static String label(Execution execution) {
    return execution.unit()
        + (execution.rollback() ? " (rollback)" : execution.destroy() ? " (destroy)" : "");
  }

  /** The detail of the execution's last Failed flow event, or a word when none was recorded. */
  private static String failureReason(ExecutionStore executions, Execution execution) {
    List<String> events = executions.flowEvents(execution.id());
    for (int i = events.size() - 1; i >= 0; i--) {
      if (events.get(i).startsWith("Failed: ")) {
        return events.get(i).substring("Failed: ".length());
      }
    }
    return "no reason was recorded";
  }

  /** How long {@code from} to {@code to} took, e.g. "37.2s" or "4m 05s"; "-" when unknown. */
  public static String duration(Instant from, Instant to) {
    if (from == null || to == null) {
      return "-";
    }
    Duration took = Duration.between(from, to);
    if (took.toMinutes() == 0) {
      return String.format("%d.%01ds", took.toSeconds(), took.toMillisPart() / 100);
    }
    if (took.toHours() == 0) {
      return String.format("%dm %02ds", took.toMinutes(), took.toSecondsPart());
    }
    return String.format("%dh %02dm", took.toHours(), took.toMinutesPart());
  }

  /**
   * The report as JSON-ready maps and lists, for {@code status --json}: each failure names where
   * {@code logs} keeps its execution's log, or null when none was kept.
   */
  public Map<String, Object> json(ExecutionLogs logs) {
    Deployment deployment = deployment();
    MergedPullRequest merge = deployment.pullRequest();
    Map<String, Object> json = new LinkedHashMap<>();
    json.put("id", deployment.id());
    json.put("status", deployment.status().id());
    json.put("repository", merge.repository());
    json.put("trigger", trigger);
    json.put("pullRequest", merge.number() > 0 ? merge.number() : null);
    json.put("baseRef", merge.baseRef());
    json.put("headRef", merge.headRef());
    json.put("baseCommit", merge.baseCommit());
    json.put("mergeCommit", merge.mergeCommit());
    json.put("driftRun", merge.driftRun());
    json.put("createdAt", text(deployment.createdAt()));
    json.put("startedAt", text(deployment.startedAt()));
    json.put("finishedAt", text(deployment.finishedAt()));
    List<Map<String, Object>> failed = new ArrayList<>();
    for (Failure failure : failures) {
      Map<String, Object> entry = new LinkedHashMap<>();
      entry.put("unit", failure.unit());
      entry.put("reason", failure.reason());
      entry.put("log", failure.log(logs).orElse(null));
      failed.add(entry);
    }
    json.put("failures", failed);
    List<Map<String, Object>> executions = new ArrayList<>();
    for (Execution execution : view.executions()) {
      Map<String, Object> entry = new LinkedHashMap<>();
      entry.put("id", execution.id());
      entry.put("unit", execution.unit());
      entry.put("account", execution.account());
      entry.put("status", execution.status().id());
      entry.put("rollback", execution.rollback());
      entry.put("destroy", execution.destroy());
      entry.put("startedAt", text(execution.startedAt()));
      entry.put("finishedAt", text(execution.finishedAt()));
      PlanSummary plan = execution.planSummary();
      if (plan == null) {
        entry.put("plan", null);
      } else {
        Map<String, Object> counts = new LinkedHashMap<>();
        counts.put("add", plan.add());
        counts.put("change", plan.change());
        counts.put("destroy", plan.destroy());
        entry.put("plan", counts);
      }
      entry.put("decision", execution.decision());
      List<Map<String, Object>> votes = new ArrayList<>();
      for (Vote vote : view.votes().getOrDefault(execution.id(), List.of())) {
        Map<String, Object> cast = new LinkedHashMap<>();
        cast.put("voter", vote.voter());
        cast.put("choice", vote.choice().id());
        cast.put("at", text(vote.castAt()));
        cast.put("reason", vote.reason());
        votes.add(cast);
      }
      entry.put("votes", votes);
      executions.add(entry);
    }
    json.put("executions", executions);
    return json;
  }

  private static String text(Instant instant) {
    return instant == null ? null : instant.toString();
  }
}
