package io.livegate.core.vote;

import io.livegate.core.deploy.ExecutionStatus;
import io.livegate.core.deploy.PlanSummary;
import io.livegate.core.testing.Executions;
import io.livegate.core.testing.Golden;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The vote mail, as a voter reads it, held to a golden file. */
class VoteMailTest {
  @Test
  void theVoteMailShowsTheUnitThePlanAndBothLinks() {
    VoteMail mail =
        VoteMail.of(
            Executions.of(
                3,
                "dev-account/us-west-2/app",
                "dev",
                ExecutionStatus.RUNNING,
                List.of(1L),
                new PlanSummary(1, 2, 0, List.of("registry.terraform.io/hashicorp/aws"))),
            new PlanSummary(1, 2, 0, List.of("registry.terraform.io/hashicorp/aws")),
            "acme/live#42",
            "https://logs.example.com/d1-app",
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
            "acme/live#43",
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
}
