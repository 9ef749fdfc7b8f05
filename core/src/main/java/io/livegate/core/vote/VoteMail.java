package io.livegate.core.vote;

import io.livegate.core.Html;
import io.livegate.core.Printable;
import io.livegate.core.deploy.Execution;
import io.livegate.core.deploy.MergedPullRequest;
import io.livegate.core.deploy.PlanSummary;
import java.util.List;
import java.util.Optional;

/**
 * The message that asks one voter to vote on one execution, in plain text and HTML: the local
 * outbox and the approval-request Lambda send the same words.
 *
 * @param subject one line, free of line breaks
 */
public record VoteMail(String subject, String text, String html) {
  /** What a vote on the destroy of a deleted unit says it does, in the mail and on the page. */
  public static final String DESTROY =
      "DESTROY: this unit was deleted from the repository; approving destroys all its resources";

  /** What a vote in a drift reconcile (docs/drift.md) says it does, in the mail and on the page. */
  public static final String RECONCILE =
      "DRIFT RECONCILE: this unit's resources changed outside livegate; approving re-applies the"
          + " trunk's configuration (no pull request)";

  /**
   * @param deployed the merge or drift reconcile the execution belongs to, or {@code null} when not
   *     known
   * @param logUrl where the plan's log is, or empty
   * @param consoleUrl the execution's page in the console, or empty where none is served
   */
  public static VoteMail of(
      Execution execution,
      PlanSummary summary,
      MergedPullRequest deployed,
      String logUrl,
      String consoleUrl,
      String approveUrl,
      String rejectUrl) {
    boolean reconcile = deployed != null && deployed.reconcile();
    String pullRequest = deployed == null || reconcile ? "" : pullRequest(deployed);
    String subject =
        ("[livegate] approve "
                + (execution.destroy() ? "DESTROYING " : "")
                + (reconcile ? "(drift reconcile) " : "")
                + execution.unit()
                + " ("
                + execution.account()
                + ")?")
            .replaceAll("[\\r\\n]", " ");
    String counts = summary.inWords();
    String commit = deployed == null ? "" : shortSha(deployed.mergeCommit());
    String providers =
        summary.newProviders().isEmpty() ? "" : String.join(", ", summary.newProviders());
    StringBuilder text =
        new StringBuilder("livegate asks you to vote on a deployment.\n\n")
            .append("Unit:    ")
            .append(execution.unit())
            .append("\nAccount: ")
            .append(execution.account());
    if (!commit.isEmpty()) {
      text.append("\nCommit:  ").append(commit);
    }
    if (!pullRequest.isEmpty()) {
      text.append("\nPR:      ").append(pullRequest);
    }
    // the title and author are the pull request author's words: one line each, whatever they hold
    String title = deployed == null || reconcile ? "" : Printable.escape(deployed.title());
    String author = deployed == null || reconcile ? "" : Printable.escape(deployed.author());
    if (!title.isEmpty()) {
      text.append("\nTitle:   ").append(title);
    }
    if (!author.isEmpty()) {
      text.append("\nAuthor:  ").append(author);
    }
    if (execution.destroy()) {
      text.append("\nAction:  ").append(DESTROY);
    }
    if (reconcile) {
      text.append("\nAction:  ").append(RECONCILE);
    }
    text.append("\nPlan:    ").append(counts);
    if (!summary.firstChanges().isEmpty()) {
      text.append("\nChanges:");
      summary.firstChanges().forEach(change -> text.append("\n  ").append(change));
      moreChanges(summary).ifPresent(more -> text.append("\n  ").append(more));
    }
    if (!summary.destroyed().isEmpty()) {
      text.append("\nDestroys:");
      summary.destroyed().forEach(address -> text.append("\n  - ").append(address));
    }
    if (!providers.isEmpty()) {
      text.append("\nNew providers: ").append(providers);
    }
    if (!logUrl.isEmpty()) {
      text.append("\nLog:     ").append(logUrl);
    }
    if (!consoleUrl.isEmpty()) {
      text.append("\nConsole: ").append(consoleUrl);
    }
    text.append("\n\nApprove: ")
        .append(approveUrl)
        .append("\nReject:  ")
        .append(rejectUrl)
        .append(
            "\n\nEach link opens a page that shows the plan and asks you to confirm;"
                + " opening it changes nothing.\n");
    StringBuilder html =
        new StringBuilder("<p>livegate asks you to vote on a deployment.</p><table>")
            .append(row("Unit", "<code>" + Html.escape(execution.unit()) + "</code>"))
            .append(row("Account", Html.escape(execution.account())));
    if (!commit.isEmpty()) {
      html.append(row("Commit", "<code>" + Html.escape(commit) + "</code>"));
    }
    if (!pullRequest.isEmpty()) {
      html.append(row("PR", Html.escape(pullRequest)));
    }
    if (!title.isEmpty()) {
      html.append(row("Title", Html.escape(title)));
    }
    if (!author.isEmpty()) {
      html.append(row("Author", Html.escape(author)));
    }
    if (execution.destroy()) {
      html.append(row("Action", "<b>" + Html.escape(DESTROY) + "</b>"));
    }
    if (reconcile) {
      html.append(row("Action", "<b>" + Html.escape(RECONCILE) + "</b>"));
    }
    html.append(row("Plan", Html.escape(counts)));
    if (!summary.firstChanges().isEmpty()) {
      html.append(
          row(
              "Changes",
              codeList(
                  "changes",
                  summary.firstChanges(),
                  moreChanges(summary).map(more -> "<li>" + more + "</li>").orElse(""))));
    }
    if (!summary.destroyed().isEmpty()) {
      html.append(row("Destroys", destroyedList(summary)));
    }
    if (!providers.isEmpty()) {
      html.append(row("New providers", Html.escape(providers)));
    }
    if (!logUrl.isEmpty()) {
      html.append(row("Log", "<a href=\"" + Html.escape(logUrl) + "\">plan log</a>"));
    }
    if (!consoleUrl.isEmpty()) {
      html.append(
          row(
              "Console",
              "<a href=\"" + Html.escape(consoleUrl) + "\">" + Html.escape(consoleUrl) + "</a>"));
    }
    html.append("</table><p><a href=\"")
        .append(Html.escape(approveUrl))
        .append("\"><b>Approve</b></a> &middot; <a href=\"")
        .append(Html.escape(rejectUrl))
        .append("\"><b>Reject</b></a></p>")
        .append("<p>Each link opens a page that shows the plan and asks you to confirm.</p>");
    return new VoteMail(subject, text.toString(), html.toString());
  }

  /** A commit shortened to 12 characters, e.g. "3f2a9c1d0b7e": the mail and the page show it. */
  static String shortSha(String sha) {
    return sha.substring(0, Math.min(12, sha.length()));
  }

  /** "and 3 more" when the summary lists fewer changed resources than the plan changes. */
  private static Optional<String> moreChanges(PlanSummary summary) {
    int more = summary.changedResources() - summary.firstChanges().size();
    return more > 0 ? Optional.of("and " + more + " more") : Optional.empty();
  }

  /** A merge's pull request, e.g. "acme/live#42", or its repository when it has no number. */
  private static String pullRequest(MergedPullRequest merge) {
    return merge.number() > 0 ? merge.repository() + "#" + merge.number() : merge.repository();
  }

  /** The destroyed resources as an HTML list: the mail and the vote page show the same. */
  public static String destroyedList(PlanSummary summary) {
    return codeList("destroyed", summary.destroyed(), "");
  }

  /** {@code items} as a list of code, of class {@code css}, with {@code last} as it is after. */
  private static String codeList(String css, List<String> items, String last) {
    StringBuilder list = new StringBuilder("<ul class=\"" + css + "\">");
    items.forEach(
        item -> list.append("<li><code>").append(Html.escape(item)).append("</code></li>"));
    return list.append(last).append("</ul>").toString();
  }

  private static String row(String label, String value) {
    return "<tr><td>" + label + "</td><td>" + value + "</td></tr>";
  }
}
