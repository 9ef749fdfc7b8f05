package io.livegate.cli.local;

import io.livegate.core.Html;
import io.livegate.core.deploy.Execution;
import io.livegate.core.deploy.ExecutionStatus;
import io.livegate.core.vote.DeploymentView;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The live status page: the deployment's dependency graph as SVG, one box per execution coloured by
 * status, laid out by layer (rollbacks in a band below). It reloads itself while the deployment is
 * unfinished.
 */
final class StatusPage {
  private static final int BOX_WIDTH = 260;
  private static final int BOX_HEIGHT = 44;
  private static final int COLUMN = 320;
  private static final int ROW = 64;
  private static final Map<ExecutionStatus, String> COLOURS =
      Map.of(
          ExecutionStatus.WAITING, "#e8e8e8",
          ExecutionStatus.RUNNING, "#fff2b3",
          ExecutionStatus.SUCCEEDED, "#c8f0c8",
          ExecutionStatus.FAILED, "#f5b5b5",
          ExecutionStatus.REJECTED, "#f7d3a6",
          ExecutionStatus.ABORTED, "#d0d0d0");

  private StatusPage() {}

  static String render(DeploymentView view, Map<Long, String> flowStates) {
    boolean live =
        !view.deployment().status().isFinished()
            && view.deployment().status()
                != io.livegate.core.deploy.DeploymentStatus.ROLLBACK_FAILED;
    Map<Long, int[]> positions = new HashMap<>();
    Map<String, List<Execution>> columns = new TreeMap<>();
    for (Execution execution : view.executions()) {
      String key =
          (execution.rollback() ? "1-" : "0-") + String.format("%05d", execution.spec().layer());
      columns.computeIfAbsent(key, k -> new ArrayList<>()).add(execution);
    }
    int maxColumn = 0;
    int column = 0;
    String band = null;
    int bandTop = 0;
    int bandRows = 0;
    for (Map.Entry<String, List<Execution>> entry : columns.entrySet()) {
      String thisBand = entry.getKey().substring(0, 1);
      if (!thisBand.equals(band)) {
        bandTop += bandRows == 0 ? 0 : bandRows * ROW + 40;
        bandRows = 0;
        column = 0;
        band = thisBand;
      }
      int row = 0;
      for (Execution execution : entry.getValue()) {
        positions.put(execution.id(), new int[] {20 + column * COLUMN, 50 + bandTop + row * ROW});
        row++;
      }
      bandRows = Math.max(bandRows, row);
      maxColumn = Math.max(maxColumn, column);
      column++;
    }
    int width = 40 + Math.max(1, maxColumn + 1) * COLUMN;
    int height = 80 + bandTop + Math.max(1, bandRows) * ROW;
    StringBuilder svg =
        new StringBuilder(
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\""
                + width
                + "\" height=\""
                + height
                + "\" font-family=\"sans-serif\" font-size=\"12\">"
                + "<defs><marker id=\"arrow\" markerWidth=\"8\" markerHeight=\"8\" refX=\"8\" refY=\"4\" orient=\"auto\">"
                + "<path d=\"M0,0 L8,4 L0,8 z\" fill=\"#777\"/></marker></defs>");
    for (Execution execution : view.executions()) {
      int[] to = positions.get(execution.id());
      for (long dependency : execution.dependsOn()) {
        int[] from = positions.get(dependency);
        if (from != null) {
          svg.append("<line x1=\"")
              .append(from[0] + BOX_WIDTH)
              .append("\" y1=\"")
              .append(from[1] + BOX_HEIGHT / 2)
              .append("\" x2=\"")
              .append(to[0])
              .append("\" y2=\"")
              .append(to[1] + BOX_HEIGHT / 2)
              .append("\" stroke=\"#777\" marker-end=\"url(#arrow)\"/>");
        }
      }
    }
    for (Execution execution : view.executions()) {
      int[] at = positions.get(execution.id());
      String state = flowStates.getOrDefault(execution.id(), "");
      svg.append("<g class=\"unit\" data-unit=\"")
          .append(Html.escape(execution.unit()))
          .append("\" data-status=\"")
          .append(execution.status().id())
          .append("\"><rect x=\"")
          .append(at[0])
          .append("\" y=\"")
          .append(at[1])
          .append("\" width=\"")
          .append(BOX_WIDTH)
          .append("\" height=\"")
          .append(BOX_HEIGHT)
          .append("\" rx=\"6\" fill=\"")
          .append(COLOURS.get(execution.status()))
          .append("\" stroke=\"#555\"/>")
          .append("<text x=\"")
          .append(at[0] + 8)
          .append("\" y=\"")
          .append(at[1] + 18)
          .append("\">")
          .append(Html.escape(shorten(execution.unit())))
          .append(execution.rollback() ? " (rollback)" : execution.destroy() ? " (destroy)" : "")
          .append("</text>")
          .append("<text x=\"")
          .append(at[0] + 8)
          .append("\" y=\"")
          .append(at[1] + 35)
          .append("\" fill=\"#333\">")
          .append(execution.status().id())
          .append(state.isEmpty() ? "" : " · " + Html.escape(state))
          .append("</text></g>");
    }
    svg.append("</svg>");
    return "<!doctype html><html><head><meta charset=\"utf-8\"><title>livegate: deployment "
        + view.deployment().id()
        + "</title>"
        + (live ? "<meta http-equiv=\"refresh\" content=\"2\">" : "")
        + "<style>body{font-family:sans-serif;margin:24px}</style></head><body>"
        + "<h1>Deployment "
        + view.deployment().id()
        + ": <span id=\"status\">"
        + view.deployment().status().id()
        + "</span></h1><p>Pull request #"
        + view.deployment().pullRequest().number()
        + " of "
        + Html.escape(view.deployment().pullRequest().repository())
        + ", merge "
        + Html.escape(view.deployment().pullRequest().mergeCommit())
        + "</p>"
        + svg
        + "</body></html>";
  }

  private static String shorten(String unit) {
    return unit.length() <= 40 ? unit : "…" + unit.substring(unit.length() - 39);
  }
}
