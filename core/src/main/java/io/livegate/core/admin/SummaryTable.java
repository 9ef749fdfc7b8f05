package io.livegate.core.admin;

import io.livegate.core.Printable;
import io.livegate.core.deploy.Execution;
import io.livegate.core.deploy.PlanSummary;
import io.livegate.core.vote.DeploymentView;
import java.time.Duration;

/** The table a deployment ends with: unit, status, duration, resources added/changed/destroyed. */
public final class SummaryTable {
  private SummaryTable() {}

  public static String render(DeploymentView view) {
    int width =
        Math.max(
            4,
            view.executions().stream()
                .mapToInt(e -> Printable.escape(e.unit()).length() + (e.rollback() ? 11 : 0))
                .max()
                .orElse(4));
    StringBuilder out = new StringBuilder();
    out.append(
        String.format(
            "%-" + width + "s  %-9s  %9s  %5s  %6s  %7s%n",
            "unit",
            "status",
            "duration",
            "add",
            "change",
            "destroy"));
    for (Execution execution : view.executions()) {
      PlanSummary plan = execution.planSummary();
      out.append(
          String.format(
              "%-" + width + "s  %-9s  %9s  %5s  %6s  %7s%n",
              // one line per unit, whatever its path holds
              Printable.escape(execution.unit())
                  + (execution.rollback()
                      ? " (rollback)"
                      : execution.destroy() ? " (destroy)" : ""),
              execution.status().id(),
              duration(execution),
              plan == null ? "-" : plan.add(),
              plan == null ? "-" : plan.change(),
              plan == null ? "-" : plan.destroy()));
    }
    out.append("deployment ")
        .append(view.deployment().id())
        .append(": ")
        .append(view.deployment().status().id())
        .append('\n');
    return out.toString();
  }

  private static String duration(Execution execution) {
    if (execution.startedAt() == null || execution.finishedAt() == null) {
      return "-";
    }
    Duration took = Duration.between(execution.startedAt(), execution.finishedAt());
    return String.format("%d.%01ds", took.toSeconds(), took.toMillisPart() / 100);
  }
}
