package io.livegate.core.drift;

import io.livegate.core.Html;
import io.livegate.core.account.Accounts;
import io.livegate.core.vote.Mailer;
import io.livegate.core.vote.VoteMail;
import java.util.Optional;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.function.Consumer;

/**
 * Reports a scheduled drift run: on the code host, the one open drift issue is updated (or opened
 * when there is none, or closed with the last report when everything is in sync again), never
 * duplicated; and the voters of every account with a drifted or failed unit get a mail. A mail that
 * cannot be sent is logged; the others are still sent.
 */
public final class ReportDrift {
  /** Starts the body of livegate's drift issue: how a later run finds it. */
  public static final String MARKER = "<!-- livegate:drift -->";

  /** What a run did on the code host. */
  public enum Outcome {
    CREATED,
    UPDATED,
    CLOSED,
    NOTHING
  }

  private final DriftIssues issues;
  private final Mailer mailer;
  private final Consumer<String> log;

  public ReportDrift(DriftIssues issues, Mailer mailer, Consumer<String> log) {
    this.issues = issues;
    this.mailer = mailer;
    this.log = log;
  }

  public Outcome report(String repository, DriftReport report, Accounts accounts) {
    Optional<DriftIssues.Issue> open = issues.findOpen(repository, MARKER);
    String body = MARKER + "\n" + markdown(report);
    Outcome outcome;
    if (report.inSync()) {
      open.ifPresent(issue -> issues.update(repository, issue.number(), body, true));
      outcome = open.isPresent() ? Outcome.CLOSED : Outcome.NOTHING;
    } else if (open.isPresent()) {
      issues.update(repository, open.get().number(), body, false);
      outcome = Outcome.UPDATED;
    } else {
      issues.create(repository, title(report), body);
      outcome = Outcome.CREATED;
    }
    mail(report, accounts);
    return outcome;
  }

  private void mail(DriftReport report, Accounts accounts) {
    SortedSet<String> touched = new TreeSet<>();
    report.drifted().forEach(unit -> touched.add(unit.account()));
    report.errors().forEach(error -> touched.add(error.account()));
    SortedSet<String> voters = new TreeSet<>();
    touched.forEach(account -> voters.addAll(accounts.get(account).voters()));
    String text = DriftReportFormat.text(report);
    VoteMail mail =
        new VoteMail(
            ("[livegate] " + title(report)).replaceAll("[\\r\\n]", " "),
            text,
            "<pre>" + Html.escape(text) + "</pre>");
    for (String voter : voters) {
      try {
        mailer.send(voter, mail);
      } catch (RuntimeException e) {
        log.accept("drift mail to " + voter + " not sent: " + e.getMessage());
      }
    }
  }

  private static String title(DriftReport report) {
    return "drift: "
        + report.drifted().size()
        + " units drifted, "
        + report.errors().size()
        + " could not be planned";
  }

  /** The issue body: a table of drifted units with their changes, then the errors. */
  static String markdown(DriftReport report) {
    StringBuilder out =
        new StringBuilder("livegate planned ")
            .append(report.planned())
            .append(" units at `")
            .append(report.head())
            .append("`: ");
    if (report.inSync()) {
      return out.append("no drift.\n").toString();
    }
    out.append(report.drifted().size())
        .append(" drifted, ")
        .append(report.errors().size())
        .append(" could not be planned.\n");
    if (!report.drifted().isEmpty()) {
      out.append("\n| unit | account | changes |\n|---|---|---|\n");
      for (DriftReport.DriftedUnit unit : report.drifted()) {
        out.append("| `")
            .append(cell(unit.unit()))
            .append("` | ")
            .append(cell(unit.account()))
            .append(" | ")
            .append(cell(String.join("; ", unit.changes())))
            .append(" |\n");
      }
    }
    for (DriftReport.DriftError error : report.errors()) {
      out.append("\n**Could not plan `")
          .append(cell(error.unit()))
          .append("`**\n\n```\n")
          .append(error.error().replace("```", "'''"))
          .append("\n```\n");
    }
    return out.toString();
  }

  private static String cell(String text) {
    return text.replace("|", "\\|").replace("`", "'").replaceAll("[\\r\\n]+", " ");
  }
}
