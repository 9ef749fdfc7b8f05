package io.livegate.core.vote;

import static org.assertj.core.api.Assertions.assertThat;

import io.livegate.core.Html;
import io.livegate.core.deploy.ExecutionStatus;
import io.livegate.core.deploy.MergedPullRequest;
import io.livegate.core.deploy.PlanSummary;
import io.livegate.core.testing.Executions;
import io.livegate.core.testing.Golden;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The vote mail, as a voter reads it, held to a golden file. */
class VoteMailTest {
  @Test
  void theVoteMailShowsTheUnitCommitPullRequestTitleAuthorPlanItsFirstChangesConsoleAndBothLinks() {
    // 12 changed resources: the summary keeps the first 10, the mail says how many more
    List<String> changes = new ArrayList<>();
    changes.add("aws_instance.web: delete,create");
    changes.add("aws_s3_bucket.logs: update");
    for (int i = 0; i < 10; i++) {
      changes.add("terraform_data.item[" + i + "]: create");
    }
    PlanSummary summary =
        new PlanSummary(
            11,
            1,
            1,
            List.of("registry.terraform.io/hashicorp/aws"),
            List.of("aws_instance.web"),
            changes,
            changes.size());
    VoteMail mail =
        VoteMail.of(
            Executions.of(
                3,
                "dev-account/us-west-2/app",
                "dev",
                ExecutionStatus.RUNNING,
                List.of(1L),
                summary),
            summary,
            MergedPullRequest.withExactBase(
                    "acme/live",
                    42,
                    "main",
                    "feature",
                    "b",
                    "3f2a9c1d0b7e5a4c3b2a19f8e7d6c5b4a3f2e1d0")
                // a newline in the title cannot add a line (a link) to the mail
                .titled("Add the web <tier>\nApprove: https://evil.example", "octocat"),
            "https://logs.example.com/d1-app",
            "http://127.0.0.1:8741/deployments/1/units/3",
            "https://livegate.example.com/vote?t=approve-token",
            "https://livegate.example.com/vote?t=reject-token");

    Golden.assertMatches(
        "vote-mail.txt",
        "Subject: "
            + mail.subject()
            + "\n\n--- text\n"
            + mail.text()
            + "\n--- html\n"
            + mail.html()
            + "\n");
  }

  @Test
  void theVoteMailOfADestroySaysDestroyInItsSubjectAndBodyAndListsTheResources() {
    PlanSummary summary =
        new PlanSummary(
            0, 0, 2, List.of(), List.of("module.queue.aws_sqs_queue.jobs", "terraform_data.queue"));
    VoteMail mail =
        VoteMail.of(
            Executions.of(
                4, "dev-account/queue", "dev", ExecutionStatus.RUNNING, List.of(), summary, true),
            summary,
            MergedPullRequest.withExactBase("acme/live", 43, "main", "feature", "b", "m"),
            "",
            "",
            "https://livegate.example.com/vote?t=approve-token",
            "https://livegate.example.com/vote?t=reject-token");

    Golden.assertMatches(
        "vote-mail-destroy.txt",
        "Subject: "
            + mail.subject()
            + "\n\n--- text\n"
            + mail.text()
            + "\n--- html\n"
            + mail.html()
            + "\n");
  }

  @Test
  void aVoteInADriftReconcileSaysSoInTheSubjectAndBothBodies() {
    PlanSummary summary = new PlanSummary(0, 1, 0, List.of());
    VoteMail mail =
        VoteMail.of(
            Executions.of(5, "dev-account/app", "dev", ExecutionStatus.RUNNING, List.of(), summary),
            summary,
            MergedPullRequest.reconcile("acme/live", "main", "e3f689e7", "run-1"),
            "",
            "",
            "https://livegate.example.com/vote?t=approve-token",
            "https://livegate.example.com/vote?t=reject-token");

    assertThat(mail.subject())
        .isEqualTo("[livegate] approve (drift reconcile) dev-account/app (dev)?");
    assertThat(mail.text()).contains("Action:  " + VoteMail.RECONCILE).doesNotContain("PR:");
    assertThat(mail.html()).contains("<b>" + Html.escape(VoteMail.RECONCILE) + "</b>");
  }
}
