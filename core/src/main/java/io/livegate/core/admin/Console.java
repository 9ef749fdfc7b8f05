package io.livegate.core.admin;

import io.livegate.core.Html;
import io.livegate.core.deploy.Deployment;
import io.livegate.core.deploy.DeploymentStatus;
import io.livegate.core.deploy.DeploymentStore;
import io.livegate.core.deploy.Execution;
import io.livegate.core.deploy.ExecutionStatus;
import io.livegate.core.deploy.ExecutionStore;
import io.livegate.core.deploy.MergedPullRequest;
import io.livegate.core.deploy.PlanSummary;
import io.livegate.core.runner.ExecutionLogs;
import io.livegate.core.vote.Vote;
import io.livegate.core.vote.VoteStore;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The operator console: the deployments of a state directory, each deployment's units by layer, and
 * each unit's plan, log, votes and timings. It only reads. {@code deploy}, {@code demo} and {@code
 * serve} serve it beside the vote pages; {@code livegate ui} serves it on its own, while or after a
 * run; {@code livegate ui --aws} has the admin Lambda render them from the metadb on AWS. It is
 * pure: the CLI serves what {@link #render} answers. Pages of unfinished deployments update in
 * place: a small script fetches the page's main part again and swaps it in, so nothing reloads.
 *
 * <p>Colours follow the Okabe-Ito palette, which stays distinct for colour-blind readers, and every
 * status is also written out with a symbol, so colour is never the only signal.
 */
public final class Console {
  /**
   * What the pages read: the metadb's stores, the execution logs and each execution's saved plan as
   * text (or a line saying why there is none to show).
   *
   * @param place where the deployments are recorded, for the empty list: {@link #STATE_DIRECTORY},
   *     or on AWS the metadb the admin function reads
   */
  public record Source(
      DeploymentStore deployments,
      ExecutionStore executions,
      VoteStore votes,
      ExecutionLogs logs,
      Function<Execution, String> planText,
      String place) {}

  /** The {@link Source#place} of a state directory's deployments. */
  public static final String STATE_DIRECTORY = "in this state directory";

  /** A page to send. */
  public record Response(int status, String contentType, String body, boolean live) {}

  private static final Pattern DEPLOYMENT = Pattern.compile("/deployments/(\\d{1,18})");
  private static final Pattern UNIT = Pattern.compile("/deployments/(\\d{1,18})/units/(\\d{1,18})");
  private static final DateTimeFormatter TIME =
      DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss 'UTC'").withZone(ZoneOffset.UTC);

  private static final String SCRIPT =
      """
      // Swaps in the main part of a live page every two seconds, so the page updates in place.
      (function () {
        const main = document.getElementById('main');
        async function refresh() {
          if (main.dataset.live !== 'true') return;
          try {
            const response = await fetch(location.pathname + '?fragment=1', {cache: 'no-store'});
            if (response.ok) {
              const html = await response.text();
              if (html !== main.innerHTML) main.innerHTML = html;
              main.dataset.live = response.headers.get('X-Livegate-Live') === 'true' ? 'true' : 'false';
            }
          } catch (e) { /* the server is gone: keep what is shown */ }
          if (main.dataset.live === 'true') setTimeout(refresh, 2000);
        }
        setTimeout(refresh, 2000);
      })();
      """;

  private static final String STYLE =
      """
      *{box-sizing:border-box}
      body{margin:0;font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#111;background:#fff;line-height:1.4}
      header{background:#1f2937;color:#fff;padding:10px 16px}
      header a{color:#fff;font-weight:600;text-decoration:none}
      main{padding:12px 16px;max-width:1400px;margin:0 auto}
      h1{font-size:1.4rem;margin:8px 0;overflow-wrap:anywhere}
      h2{font-size:1.1rem;margin:20px 0 8px}
      a{color:#0b5394}
      .facts{display:grid;grid-template-columns:max-content 1fr;gap:2px 12px;margin:8px 0}
      .facts dt{font-weight:600}.facts dd{margin:0;overflow-wrap:anywhere}
      ul.cards{list-style:none;padding:0;margin:0;display:grid;gap:8px;grid-template-columns:repeat(auto-fill,minmax(min(100%,18rem),1fr))}
      .card{border:1px solid #bbb;border-left-width:8px;border-radius:4px;padding:8px 10px;background:#fff;min-width:0}
      .card .name{display:block;font-weight:600;overflow-wrap:anywhere}
      .card .meta{display:block;font-size:.9rem;color:#333;overflow-wrap:anywhere}
      .badge{display:inline-block;padding:0 6px;border-radius:3px;font-size:.85rem;font-weight:600;border:1px solid #555;background:#fff;color:#111;white-space:nowrap}
      .s-succeeded{border-left-color:#009E73}.s-succeeded .badge,.badge.s-succeeded{background:#d9f2ea}
      .s-failed,.s-rollback_failed{border-left-color:#D55E00}.s-failed .badge,.badge.s-failed,.badge.s-rollback_failed{background:#fbe0cf}
      .s-rejected{border-left-color:#CC79A7}.s-rejected .badge,.badge.s-rejected{background:#f5e1ec}
      .s-running,.s-rolling_back{border-left-color:#0072B2}.s-running .badge,.badge.s-running,.badge.s-rolling_back{background:#d6e8f5}
      .s-waiting,.s-queued{border-left-color:#E69F00;border-left-style:dashed}.s-waiting .badge,.badge.s-waiting,.badge.s-queued{background:#fcefd2}
      .s-aborted{border-left-color:#555;background:repeating-linear-gradient(135deg,#fff,#fff 8px,#f0f0f0 8px,#f0f0f0 16px)}.badge.s-aborted{background:#e5e5e5}
      .legend{display:flex;flex-wrap:wrap;gap:6px;margin:8px 0;padding:0;list-style:none}
      .layer h2{font-size:1rem;color:#333}
      .mark{font-weight:700;color:#7a2e00}
      pre{white-space:pre-wrap;overflow-wrap:anywhere;background:#f6f6f6;border:1px solid #ddd;padding:8px;font-size:.85rem;margin:0}
      pre .add{color:#005a3c;background:#e3f4ec}pre .del{color:#8a2c00;background:#fbe6da}pre .chg{color:#004a80;background:#e2eef8}
      table{border-collapse:collapse}td,th{text-align:left;padding:2px 10px 2px 0;vertical-align:top;overflow-wrap:anywhere}
      .failure{border-left:6px solid #D55E00;padding:4px 10px;margin:6px 0;background:#fdf1e9}
      """;

  private final Source source;

  public Console(Source source) {
    this.source = source;
  }

  /** The page at {@code path}; with {@code fragment}, only its main part, for live updates. */
  public Response render(String path, boolean fragment) {
    if (path.equals("/console.js")) {
      return new Response(200, "text/javascript; charset=utf-8", SCRIPT, false);
    }
    Page page;
    Matcher unit = UNIT.matcher(path);
    Matcher deployment = DEPLOYMENT.matcher(path);
    if (path.equals("/") || path.equals("/deployments")) {
      page = deployments();
    } else if (unit.matches()) {
      page = unit(Long.parseLong(unit.group(1)), Long.parseLong(unit.group(2)));
    } else if (deployment.matches()) {
      page = deployment(Long.parseLong(deployment.group(1)));
    } else {
      page =
          new Page(
              404,
              "Not found",
              "<p>There is nothing here. <a href=\"/\">Deployments</a></p>",
              false);
    }
    return new Response(
        page.status(),
        "text/html; charset=utf-8",
        fragment ? page.main() : html(page),
        page.live());
  }

  private record Page(int status, String title, String main, boolean live) {}

  private Page deployments() {
    List<Deployment> all = new ArrayList<>(source.deployments().all());
    all.sort((a, b) -> Long.compare(b.id(), a.id()));
    StringBuilder main = new StringBuilder("<h1>Deployments</h1>");
    if (all.isEmpty()) {
      main.append("<p>No deployment is recorded yet ")
          .append(Html.escape(source.place()))
          .append(".</p>");
    }
    main.append("<ul class=\"cards\" id=\"deployments\">");
    boolean live = false;
    for (Deployment deployment : all) {
      live |= unfinished(deployment.status());
      MergedPullRequest merge = deployment.pullRequest();
      main.append("<li class=\"card s-")
          .append(deployment.status().id())
          .append("\"><a class=\"name\" href=\"/deployments/")
          .append(deployment.id())
          .append("\">Deployment ")
          .append(deployment.id())
          .append("</a> ")
          .append(badge(deployment.status().id()))
          .append("<span class=\"meta\">")
          .append(Html.escape(DeploymentReport.trigger(merge)))
          .append("</span><span class=\"meta\">commit <code>")
          .append(Html.escape(shortSha(merge.mergeCommit())))
          .append("</code> of ")
          .append(wrappable(merge.repository()))
          .append("</span><span class=\"meta\">started ")
          .append(time(deployment.startedAt()))
          .append(", took ")
          .append(took(deployment.startedAt(), deployment.finishedAt()))
          .append("</span></li>");
    }
    main.append("</ul>");
    return new Page(200, "Deployments", main.toString(), live);
  }

  private Page deployment(long id) {
    Optional<Deployment> found = source.deployments().find(id);
    if (found.isEmpty()) {
      return new Page(
          404,
          "Not found",
          "<p>There is no deployment " + id + ". <a href=\"/\">Deployments</a></p>",
          false);
    }
    DeploymentReport report =
        DeploymentReport.of(source.deployments(), source.executions(), source.votes(), id);
    Deployment deployment = report.deployment();
    MergedPullRequest merge = deployment.pullRequest();
    StringBuilder main = new StringBuilder();
    main.append("<p><a href=\"/\">Deployments</a></p><h1>Deployment ")
        .append(id)
        .append(" ")
        .append(badge(deployment.status().id()))
        .append("</h1><dl class=\"facts\">")
        .append(fact("Trigger", Html.escape(report.trigger())))
        .append(fact("Repository", wrappable(merge.repository())))
        .append(
            fact(
                "Commits",
                "<code>"
                    + Html.escape(shortSha(merge.baseCommit()))
                    + "</code>..<code>"
                    + Html.escape(shortSha(merge.mergeCommit()))
                    + "</code>"))
        .append(fact("Queued", time(deployment.createdAt())))
        .append(fact("Started", time(deployment.startedAt())))
        .append(fact("Finished", time(deployment.finishedAt())))
        .append(fact("Took", took(deployment.startedAt(), deployment.finishedAt())))
        .append("</dl>");
    for (DeploymentReport.Failure failure : report.failures()) {
      main.append("<div class=\"failure\"><b>")
          .append(wrappable(failure.unit()))
          .append("</b> failed: ")
          .append(Html.escape(headline(failure.reason())))
          .append(" <a href=\"/deployments/")
          .append(id)
          .append("/units/")
          .append(failure.executionId())
          .append("\">log</a>")
          .append("</div>");
    }
    main.append("<h2>Legend</h2><ul class=\"legend\">");
    for (ExecutionStatus status : ExecutionStatus.values()) {
      main.append("<li>").append(badge(status.id())).append("</li>");
    }
    main.append("</ul>");
    Map<Long, Execution> byId = new HashMap<>();
    report.view().executions().forEach(e -> byId.put(e.id(), e));
    Map<String, List<Execution>> layers = new TreeMap<>();
    for (Execution execution : report.view().executions()) {
      String key =
          (execution.rollback() ? "2 Rollback, layer " : "1 Layer ")
              + String.format("%05d", execution.spec().layer() + 1);
      layers.computeIfAbsent(key, k -> new ArrayList<>()).add(execution);
    }
    for (Map.Entry<String, List<Execution>> layer : layers.entrySet()) {
      String name = layer.getKey().substring(2).replaceAll(" 0+(\\d)", " $1");
      main.append("<section class=\"layer\"><h2>")
          .append(Html.escape(name))
          .append("</h2><ul class=\"cards\">");
      for (Execution execution : layer.getValue()) {
        main.append(unitCard(execution, byId, report.view().votes().get(execution.id())));
      }
      main.append("</ul></section>");
    }
    return new Page(200, "Deployment " + id, main.toString(), unfinished(deployment.status()));
  }

  /** The path of an execution's unit page, which the vote pages' result links to. */
  public static String unitPath(Execution execution) {
    return "/deployments/" + execution.deploymentId() + "/units/" + execution.id();
  }

  private String unitCard(Execution execution, Map<Long, Execution> byId, List<Vote> votes) {
    return "<li class=\"card s-"
        + execution.status().id()
        + "\"><a class=\"name\" href=\""
        + unitPath(execution)
        + "\" title=\""
        + Html.escape(execution.unit())
        + "\">"
        + wrappable(execution.unit())
        + "</a>"
        + marks(execution)
        + badge(execution.status().id())
        + "<span class=\"meta\">"
        + Html.escape(step(execution, byId, votes == null ? List.of() : votes))
        + "</span></li>";
  }

  /** The execution's step in words, e.g. "waiting for 2 of 3 votes: alice, bob". */
  private String step(Execution execution, Map<Long, Execution> byId, List<Vote> votes) {
    switch (execution.status()) {
      case WAITING -> {
        List<String> waitsFor = new ArrayList<>();
        for (long dependency : execution.dependsOn()) {
          Execution before = byId.get(dependency);
          if (before != null && !before.status().isTerminal()) {
            waitsFor.add(before.unit());
          }
        }
        return waitsFor.isEmpty()
            ? "waiting to be released"
            : "waiting for " + String.join(", ", waitsFor);
      }
      case RUNNING -> {
        String state = source.executions().flowState(execution.id()).orElse("Plan");
        return switch (state) {
          case "RequestApproval", "Decide" -> votesWanted(execution, votes);
          case "Apply" -> execution.destroy() || execution.rollback() ? "destroying" : "applying";
          default -> "planning";
        };
      }
      default -> {
        if (execution.startedAt() == null) {
          return execution.status().id() + " before it started";
        }
        return execution.status().id()
            + " in "
            + took(execution.startedAt(), execution.finishedAt())
            + counts(execution.planSummary());
      }
    }
  }

  private static String votesWanted(Execution execution, List<Vote> votes) {
    List<String> voted = votes.stream().map(Vote::voter).toList();
    List<String> pending =
        execution.spec().voters().stream().filter(voter -> !voted.contains(voter)).toList();
    long approvals = votes.stream().filter(v -> v.choice() == Vote.Choice.APPROVE).count();
    return "waiting for "
        + execution.spec().minApprovals()
        + " of "
        + execution.spec().voters().size()
        + (execution.spec().voters().size() == 1 ? " vote" : " votes")
        + (approvals > 0 ? " (" + approvals + " approved)" : "")
        + (pending.isEmpty() ? "" : ": " + String.join(", ", pending));
  }

  private Page unit(long deploymentId, long executionId) {
    Optional<Execution> found = source.executions().find(executionId);
    if (found.isEmpty() || found.get().deploymentId() != deploymentId) {
      return new Page(
          404, "Not found", "<p>There is no such unit. <a href=\"/\">Deployments</a></p>", false);
    }
    Execution execution = found.get();
    List<Vote> votes = source.votes().votes(execution.id());
    StringBuilder main = new StringBuilder();
    main.append("<p><a href=\"/\">Deployments</a> › <a href=\"/deployments/")
        .append(deploymentId)
        .append("\">Deployment ")
        .append(deploymentId)
        .append("</a></p><h1 id=\"unit\">")
        .append(wrappable(execution.unit()))
        .append(marks(execution))
        .append(badge(execution.status().id()))
        .append("</h1><dl class=\"facts\">")
        .append(fact("Account", Html.escape(execution.account())))
        .append(fact("Step", Html.escape(step(execution, Map.of(), votes))))
        .append(fact("Created", time(execution.createdAt())))
        .append(fact("Started", time(execution.startedAt())))
        .append(fact("Finished", time(execution.finishedAt())))
        .append(fact("Took", took(execution.startedAt(), execution.finishedAt())))
        .append(fact("Plan", Html.escape(counts(execution.planSummary()).replaceFirst("^, ", ""))))
        .append(
            fact(
                "Decision", Html.escape(execution.decision() == null ? "-" : execution.decision())))
        .append(
            fact(
                "Voters",
                Html.escape(
                    String.join(", ", execution.spec().voters())
                        + " (approve with "
                        + execution.spec().minApprovals()
                        + ", reject with "
                        + execution.spec().minRejections()
                        + ")")))
        .append("</dl><h2>Votes</h2>");
    if (votes.isEmpty()) {
      main.append("<p>No votes yet.</p>");
    } else {
      main.append(
          "<table id=\"votes\"><tr><th>Voter</th><th>Vote</th><th>When</th><th>Reason</th></tr>");
      for (Vote vote : votes) {
        main.append("<tr><td>")
            .append(Html.escape(vote.voter()))
            .append("</td><td>")
            .append(vote.choice().id())
            .append("</td><td>")
            .append(time(vote.castAt()))
            .append("</td><td>")
            .append(Html.escape(vote.reason()))
            .append("</td></tr>");
      }
      main.append("</table>");
    }
    main.append("<h2>Steps</h2><ol>");
    for (String event : source.executions().flowEvents(execution.id())) {
      main.append("<li>").append(Html.escape(event.lines().findFirst().orElse(""))).append("</li>");
    }
    main.append("</ol><h2>Plan</h2><pre id=\"plan\">")
        .append(Html.planDiff(source.planText().apply(execution)))
        .append("</pre><h2>Log</h2><pre id=\"log\">")
        .append(
            Html.planDiff(
                source
                    .logs()
                    .read(execution.name())
                    .orElse("(no output was kept for this unit yet)")))
        .append("</pre>");
    return new Page(200, execution.unit(), main.toString(), !execution.status().isTerminal());
  }

  /** What a reader needs first of a failure: terraform's first error line, else its first line. */
  static String headline(String reason) {
    return reason
        .lines()
        .map(String::strip)
        .filter(line -> line.startsWith("Error:"))
        .findFirst()
        .orElse(reason.lines().findFirst().orElse(""));
  }

  private static String marks(Execution execution) {
    return execution.rollback()
        ? " <span class=\"mark\">(rollback)</span> "
        : execution.destroy() ? " <span class=\"mark\">(destroy)</span> " : " ";
  }

  private static String badge(String status) {
    String symbol =
        switch (status) {
          case "succeeded" -> "✓";
          case "failed", "rollback_failed" -> "✗";
          case "rejected" -> "⊘";
          case "running", "rolling_back" -> "▶";
          case "waiting", "queued" -> "…";
          default -> "–";
        };
    return "<span class=\"badge s-"
        + status
        + "\">"
        + symbol
        + " "
        + status.replace('_', ' ')
        + "</span>";
  }

  /** A path that may break after each slash, never cut: the full name stays readable. */
  private static String wrappable(String path) {
    return Html.escape(path).replace("/", "/<wbr>");
  }

  private static String fact(String name, String html) {
    return "<dt>" + name + "</dt><dd>" + html + "</dd>";
  }

  private static String counts(PlanSummary plan) {
    return plan == null ? "" : ", +" + plan.add() + " ~" + plan.change() + " -" + plan.destroy();
  }

  private static String time(Instant instant) {
    return instant == null ? "-" : TIME.format(instant);
  }

  private static String took(Instant from, Instant to) {
    return DeploymentReport.duration(from, to);
  }

  private static String shortSha(String sha) {
    return sha.substring(0, Math.min(12, sha.length()));
  }

  private static boolean unfinished(DeploymentStatus status) {
    return !status.isFinished() && status != DeploymentStatus.ROLLBACK_FAILED;
  }

  private static String html(Page page) {
    return "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\">"
        + "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
        + "<title>livegate: "
        + Html.escape(page.title())
        + "</title><style>"
        + STYLE
        + "</style></head><body><header><a href=\"/\">livegate</a></header><main id=\"main\" data-live=\""
        + page.live()
        + "\">"
        + page.main()
        + "</main><script src=\"/console.js\"></script></body></html>";
  }
}
