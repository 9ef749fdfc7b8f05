package io.livegate.core.vote;

import io.livegate.core.Html;
import io.livegate.core.deploy.DeploymentStore;
import io.livegate.core.deploy.Execution;
import io.livegate.core.deploy.ExecutionStore;
import io.livegate.core.deploy.PlanSummary;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.temporal.ChronoUnit;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * What a vote link does, for every runtime: the local vote server and the approval-response Lambda
 * both answer with these pages. A GET shows a confirm page and changes nothing, because mail
 * scanners prefetch links; the POST from that page records the vote. Forged, expired, replayed and
 * non-voter links, and votes after the decision, get a clear 4xx page and change nothing.
 */
public final class VoteDesk {
  /** The path that vote links and the confirm form use. */
  public static final String PATH = "/vote";

  /** The query and form parameter that carries the signed token. */
  public static final String TOKEN_PARAMETER = "t";

  /** The form parameter of the confirm page that carries a reject's reason. */
  public static final String REASON_PARAMETER = "reason";

  /**
   * A page to answer with.
   *
   * @param decided set only on the answer to the vote that decided the execution, exactly once
   */
  public record Page(int status, String html, Optional<Decided> decided) {}

  /** The vote that decided: the runtime hands the decision to the waiting flow. */
  public record Decided(long executionId, Decision decision) {}

  private final VoteLinks links;
  private final CastVote castVote;
  private final VoteStore votes;
  private final ExecutionStore executions;
  private final DeploymentStore deployments;
  private final Function<Execution, String> planText;
  private final Function<Execution, Optional<String>> consoleLink;
  private final Clock clock;

  /**
   * @param votes the votes cast so far, which the confirm page lists
   * @param deployments where the page finds whether the execution is in a drift reconcile
   * @param planText the plan as people read it, shown on the confirm page
   * @param consoleLink the execution's page in the console, which the result page links to; empty
   *     where no console is served (the approval-response Lambda's)
   */
  public VoteDesk(
      VoteLinks links,
      CastVote castVote,
      VoteStore votes,
      ExecutionStore executions,
      DeploymentStore deployments,
      Function<Execution, String> planText,
      Function<Execution, Optional<String>> consoleLink,
      Clock clock) {
    this.links = links;
    this.castVote = castVote;
    this.votes = votes;
    this.executions = executions;
    this.deployments = deployments;
    this.planText = planText;
    this.consoleLink = consoleLink;
    this.clock = clock;
  }

  /** The confirm page of a link (GET). It records nothing. */
  public Page confirm(String token) {
    VoteLinks.Check check = links.check(token, clock.instant());
    if (!(check instanceof VoteLinks.Check.Valid valid)) {
      return refusal(check);
    }
    VoteLinks.Ballot ballot = valid.ballot();
    Optional<Execution> found = executions.find(ballot.executionId());
    if (found.isEmpty()) {
      return page(
          404,
          "Unknown execution",
          "<p id=\"result\">This link names an execution that does not exist.</p>");
    }
    Execution execution = found.get();
    if (!execution.spec().voters().contains(ballot.voter())) {
      // Refused here as well as when casting, so a non-voter never sees a button to press.
      return notAVoter(ballot.voter());
    }
    if (execution.decision() != null) {
      return page(
          409,
          "Already decided",
          "<p id=\"result\">This vote was already decided: <b>"
              + Html.escape(execution.decision())
              + "</b>.</p>");
    }
    String choice = ballot.choice() == Vote.Choice.APPROVE ? "Approve" : "Reject";
    boolean reconcile =
        deployments
            .find(execution.deploymentId())
            .map(deployment -> deployment.pullRequest().reconcile())
            .orElse(false);
    return page(
        200,
        choice
            + " "
            + (execution.destroy() ? "destroying " : "")
            + (reconcile ? "(drift reconcile) " : "")
            + execution.unit()
            + "?",
        "<table class=\"facts\"><tr><td>Unit</td><td><code id=\"unit\">"
            + Html.escape(execution.unit())
            + "</code></td></tr>"
            + "<tr><td>Account</td><td>"
            + Html.escape(execution.account())
            + "</td></tr>"
            + "<tr><td>Voter</td><td>"
            + Html.escape(ballot.voter())
            + "</td></tr>"
            + (execution.destroy()
                ? "<tr><td>Action</td><td id=\"action\"><b>"
                    + Html.escape(VoteMail.DESTROY)
                    + "</b></td></tr>"
                : "")
            + (reconcile
                ? "<tr><td>Action</td><td id=\"reconcile\"><b>"
                    + Html.escape(VoteMail.RECONCILE)
                    + "</b></td></tr>"
                : "")
            + "<tr><td>Plan</td><td id=\"summary\">"
            + Html.escape(counts(execution.planSummary()))
            + "</td></tr>"
            + "<tr><td>Decided by</td><td id=\"quorum\">"
            + Html.escape(quorum(execution))
            + "</td></tr>"
            + deployments
                .find(execution.deploymentId())
                .map(
                    deployment ->
                        "<tr><td>Commit</td><td id=\"commit\"><code>"
                            + Html.escape(VoteMail.shortSha(deployment.pullRequest().mergeCommit()))
                            + "</code> of "
                            + Html.escape(deployment.pullRequest().repository())
                            + (deployment.pullRequest().number() > 0
                                ? ", pull request #" + deployment.pullRequest().number()
                                : "")
                            + " (deployment "
                            + deployment.id()
                            + ")</td></tr>")
                .orElse("")
            + "<tr><td>Link expires</td><td id=\"expires\">"
            + ballot.expires()
            + "</td></tr>"
            + (execution.planSummary() == null || execution.planSummary().destroyed().isEmpty()
                ? ""
                : "<tr><td>Destroys</td><td id=\"destroyed\">"
                    + VoteMail.destroyedList(execution.planSummary())
                    + "</td></tr>")
            + "</table>"
            + votesSoFar(votes.votes(execution.id()))
            + "<form method=\"post\" action=\""
            + PATH
            + "\"><input type=\"hidden\" name=\""
            + TOKEN_PARAMETER
            + "\" value=\""
            + Html.escape(token)
            + "\">"
            + (ballot.choice() == Vote.Choice.REJECT
                ? "<p><label for=\"reason\">Why do you reject it? (optional, shown with your vote)"
                    + "</label><br><textarea id=\"reason\" name=\""
                    + REASON_PARAMETER
                    + "\" rows=\"3\" cols=\"60\" maxlength=\""
                    + Vote.MAX_REASON
                    + "\"></textarea></p>"
                : "")
            + "<button id=\"confirm\" type=\"submit\">"
            + choice
            + "</button></form>"
            + "<h2>Plan</h2><pre id=\"plan\">"
            + Html.planDiff(planText.apply(execution))
            + "</pre>");
  }

  /**
   * Records the vote of a link (POST from the confirm page).
   *
   * @param reason the reason field of a reject's confirm page; null or empty when not given
   */
  public Page record(String token, String reason) {
    VoteLinks.Check check = links.check(token, clock.instant());
    if (!(check instanceof VoteLinks.Check.Valid valid)) {
      return refusal(check);
    }
    VoteLinks.Ballot ballot = valid.ballot();
    VoteResult result =
        castVote.cast(ballot.executionId(), ballot.voter(), ballot.choice(), reason);
    String choice = ballot.choice().id();
    if (result instanceof VoteResult.Recorded recorded) {
      return new Page(
          200,
          html(
              "Vote recorded",
              "<p id=\"result\">Your "
                  + choice
                  + " is recorded ("
                  + recorded.approvals()
                  + " approvals, "
                  + recorded.rejections()
                  + " rejections)."
                  + (recorded.decided()
                      ? " It decided the vote: <b>" + recorded.decidedNow().id() + "</b>."
                      : "")
                  + "</p>"
                  + executions
                      .find(ballot.executionId())
                      .map(
                          execution ->
                              "<p id=\"voted-unit\">Unit <code>"
                                  + Html.escape(execution.unit())
                                  + "</code> of deployment "
                                  + execution.deploymentId()
                                  + "."
                                  + consoleLink
                                      .apply(execution)
                                      .map(
                                          link ->
                                              " <a id=\"console\" href=\""
                                                  + Html.escape(link)
                                                  + "\">See it in the console</a>.")
                                      .orElse("")
                                  + "</p>")
                      .orElse("")),
          recorded.decided()
              ? Optional.of(new Decided(ballot.executionId(), recorded.decidedNow()))
              : Optional.empty());
    }
    if (result instanceof VoteResult.AlreadyDecided decided) {
      return page(
          409,
          "Already decided",
          "<p id=\"result\">This vote was already decided: <b>"
              + decided.decision().id()
              + "</b>. Your vote was not counted.</p>");
    }
    if (result instanceof VoteResult.NotAVoter notAVoter) {
      return notAVoter(notAVoter.voter());
    }
    return page(
        409,
        "Not open for votes",
        "<p id=\"result\">"
            + Html.escape(((VoteResult.NotOpen) result).reason())
            + " No vote was recorded.</p>");
  }

  /**
   * The values of a query string or an {@code application/x-www-form-urlencoded} body, as both
   * runtimes read the token of a link or of the confirm form. The first value of a name wins; a
   * pair with a malformed escape is dropped, so a token it carried is refused as forged rather than
   * answered with an error.
   *
   * @param raw the undecoded text; null reads as empty
   */
  public static Map<String, String> form(String raw) {
    Map<String, String> values = new HashMap<>();
    if (raw == null) {
      return values;
    }
    for (String pair : raw.split("&")) {
      int equals = pair.indexOf('=');
      if (equals > 0) {
        try {
          values.putIfAbsent(
              URLDecoder.decode(pair.substring(0, equals), StandardCharsets.UTF_8),
              URLDecoder.decode(pair.substring(equals + 1), StandardCharsets.UTF_8));
        } catch (IllegalArgumentException e) {
          // a malformed escape: the pair is dropped
        }
      }
    }
    return values;
  }

  /** A page for a request that is not a vote: not found, too large, wrong method, an error. */
  public static Page page(int status, String title, String body) {
    return new Page(status, html(title, body), Optional.empty());
  }

  private static Page refusal(VoteLinks.Check check) {
    if (check instanceof VoteLinks.Check.Expired expired) {
      return page(
          410,
          "Expired link",
          "<p id=\"result\">This vote link expired at "
              + expired.ballot().expires()
              + ". No vote was recorded.</p>");
    }
    return page(
        403,
        "Invalid link",
        "<p id=\"result\">This vote link is not valid. No vote was recorded.</p>");
  }

  private static Page notAVoter(String voter) {
    return page(
        403,
        "Not a voter",
        "<p id=\"result\">"
            + Html.escape(voter)
            + " is not a voter for this unit. No vote was recorded.</p>");
  }

  /** Who voted what and when before this voter: the confirm page shows them. */
  private static String votesSoFar(List<Vote> cast) {
    if (cast.isEmpty()) {
      return "<h2>Votes so far</h2><p id=\"no-votes\">Nobody has voted yet.</p>";
    }
    StringBuilder table =
        new StringBuilder(
            "<h2>Votes so far</h2><table id=\"votes\"><tr><th>Voter</th><th>Vote</th><th>When</th>"
                + "<th>Reason</th></tr>");
    for (Vote vote : cast) {
      table
          .append("<tr><td>")
          .append(Html.escape(vote.voter()))
          .append("</td><td>")
          .append(vote.choice().id())
          .append("</td><td>")
          .append(vote.castAt().truncatedTo(ChronoUnit.SECONDS))
          .append("</td><td>")
          .append(Html.escape(vote.reason()))
          .append("</td></tr>");
    }
    return table.append("</table>").toString();
  }

  private static String counts(PlanSummary summary) {
    return summary == null
        ? "not planned yet"
        : summary.inWords()
            + (summary.newProviders().isEmpty()
                ? ""
                : "; new providers: " + String.join(", ", summary.newProviders()));
  }

  /** How the vote is decided, e.g. "1 approval or 1 rejection from: alice, bob". */
  private static String quorum(Execution execution) {
    int approvals = execution.spec().minApprovals();
    int rejections = execution.spec().minRejections();
    return approvals
        + (approvals == 1 ? " approval" : " approvals")
        + " or "
        + rejections
        + (rejections == 1 ? " rejection" : " rejections")
        + " from: "
        + String.join(", ", execution.spec().voters());
  }

  /** The page template of every livegate page. */
  public static String html(String title, String body) {
    return "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\">"
        + "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"><title>livegate: "
        + Html.escape(title)
        + "</title><style>body{font-family:sans-serif;margin:16px;max-width:60em}h1{overflow-wrap:anywhere}"
        + "pre{background:#f4f4f4;padding:12px;white-space:pre-wrap;overflow-wrap:anywhere}"
        + "pre .add{color:#005a3c;background:#e3f4ec}pre .del{color:#8a2c00;background:#fbe6da}"
        + "pre .chg{color:#004a80;background:#e2eef8}"
        + "td,th{text-align:left;padding:2px 12px 2px 0;vertical-align:top;overflow-wrap:anywhere}"
        // a fact's name is one word or two: broken inside a word ("Accou nt") it reads badly
        + ".facts td:first-child{white-space:nowrap}"
        // the reason's 60 columns are its width on a desktop; on a phone it fits the page
        + "textarea{box-sizing:border-box;max-width:100%}"
        + "button{font-size:1.2em;padding:6px 18px}</style>"
        + "</head><body><h1>"
        + Html.escape(title)
        + "</h1>"
        + body
        + "</body></html>";
  }
}
