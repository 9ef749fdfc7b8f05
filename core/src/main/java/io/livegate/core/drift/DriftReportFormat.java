package io.livegate.core.drift;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.livegate.core.Html;
import io.livegate.core.Jackson;

/**
 * Writes a {@link DriftReport} as the JSON of docs/drift.md, field by field, so that renaming a
 * Java member never changes the contract.
 */
public final class DriftReportFormat {
  public static final int SCHEMA_VERSION = 1;

  private DriftReportFormat() {}

  /** The JSON contract of docs/drift.md. */
  public static String write(DriftReport report) {
    ObjectNode root = Jackson.MAPPER.createObjectNode();
    root.put("schemaVersion", SCHEMA_VERSION);
    root.put("head", report.head());
    root.put("planned", report.planned());
    root.put("inSync", report.inSync());
    ArrayNode drifted = root.putArray("drifted");
    for (DriftReport.DriftedUnit unit : report.drifted()) {
      ObjectNode node = drifted.addObject();
      node.put("unit", unit.unit());
      node.put("account", unit.account());
      unit.changes().forEach(node.putArray("changes")::add);
    }
    ArrayNode errors = root.putArray("errors");
    for (DriftReport.DriftError error : report.errors()) {
      ObjectNode node = errors.addObject();
      node.put("unit", error.unit());
      node.put("account", error.account());
      node.put("error", error.error());
    }
    try {
      return Jackson.INDENTED.writeValueAsString(root) + "\n";
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("a JSON tree could not be written", e);
    }
  }

  /** The report for people: each drifted unit with its changes, then each error. */
  public static String text(DriftReport report) {
    StringBuilder out =
        new StringBuilder("drift at ")
            .append(report.head(), 0, Math.min(12, report.head().length()))
            .append(": ")
            .append(report.planned())
            .append(" units planned, ")
            .append(report.drifted().size())
            .append(" drifted, ")
            .append(report.errors().size())
            .append(" could not be planned\n");
    for (DriftReport.DriftedUnit unit : report.drifted()) {
      out.append("\ndrifted ")
          .append(unit.unit())
          .append("  [")
          .append(unit.account())
          .append("]\n");
      unit.changes().forEach(change -> out.append("    ").append(change).append('\n'));
    }
    for (DriftReport.DriftError error : report.errors()) {
      out.append("\nERROR ")
          .append(error.unit())
          .append("  [")
          .append(error.account())
          .append("]\n    ")
          .append(error.error().replace("\n", "\n    "))
          .append('\n');
    }
    if (report.inSync()) {
      out.append("no drift\n");
    }
    return out.toString();
  }

  /**
   * A self-contained HTML page: a table of the drifted units and their changes, then the errors.
   */
  public static String html(DriftReport report) {
    String title =
        report.inSync()
            ? "livegate drift: no drift"
            : "livegate drift: "
                + report.drifted().size()
                + " drifted, "
                + report.errors().size()
                + " could not be planned";
    StringBuilder page =
        new StringBuilder("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>")
            .append(Html.escape(title))
            .append("</title></head><body>\n<h1>")
            .append(Html.escape(title))
            .append("</h1>\n<p id=\"summary\">")
            .append(report.planned())
            .append(" units planned at <code>")
            .append(Html.escape(report.head()))
            .append("</code></p>\n");
    if (!report.drifted().isEmpty()) {
      page.append("<table id=\"drifted\"><tr><th>unit</th><th>account</th><th>changes</th></tr>\n");
      for (DriftReport.DriftedUnit unit : report.drifted()) {
        page.append("<tr><td><code>")
            .append(Html.escape(unit.unit()))
            .append("</code></td><td>")
            .append(Html.escape(unit.account()))
            .append("</td><td><ul>");
        unit.changes()
            .forEach(
                change ->
                    page.append("<li><code>").append(Html.escape(change)).append("</code></li>"));
        page.append("</ul></td></tr>\n");
      }
      page.append("</table>\n");
    }
    for (DriftReport.DriftError error : report.errors()) {
      page.append("<h2 class=\"error\">Could not plan <code>")
          .append(Html.escape(error.unit()))
          .append("</code> (")
          .append(Html.escape(error.account()))
          .append(")</h2>\n<pre>")
          .append(Html.escape(error.error()))
          .append("</pre>\n");
    }
    return page.append("</body></html>\n").toString();
  }
}
