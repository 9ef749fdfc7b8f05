package io.livegate.cli.local;

import static org.assertj.core.api.Assertions.assertThat;

import io.livegate.core.deploy.Execution;
import io.livegate.core.deploy.ExecutionStatus;
import io.livegate.core.deploy.MergedPullRequest;
import io.livegate.core.deploy.PlanSummary;
import io.livegate.core.testing.Executions;
import io.livegate.core.vote.VoteMail;
import jakarta.mail.BodyPart;
import jakarta.mail.Multipart;
import jakarta.mail.internet.InternetAddress;
import jakarta.mail.internet.MimeMessage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class OutboxTest {
  private static final String APPROVE = "http://127.0.0.1:8741/vote?t=YXBwcm92ZQ.c2ln&x=1";
  private static final String REJECT = "http://127.0.0.1:8741/vote?t=cmVqZWN0.c2ln&x=1";
  private static final String CONSOLE = "http://127.0.0.1:8741/deployments/7/units/12";

  @TempDir Path outbox;

  @Test
  void aVoteRequestIsAMultipartMessageThatSaysWhatIsVotedOnWithTheConsoleAndBothLinks()
      throws Exception {
    Path file =
        new Outbox(outbox, Optional.empty())
            .voteRequest(
                execution("dev-account/us-west-2/env-one/bar", "dév"),
                "platform-lead@example.com",
                VoteMail.of(
                    execution("dev-account/us-west-2/env-one/bar", "dév"),
                    new PlanSummary(1, 2, 3, List.of("terraform.io/builtin/terraform")),
                    MergedPullRequest.withExactBase(
                        "acme/live",
                        42,
                        "main",
                        "feature",
                        "b",
                        "9c1e5f0a2b3c4d5e6f708192a3b4c5d6e7f80910"),
                    "",
                    CONSOLE,
                    APPROVE,
                    REJECT));

    MimeMessage message = SentMail.parse(file);
    assertThat(message.getFrom()).containsExactly(new InternetAddress("livegate@localhost"));
    assertThat(message.getAllRecipients())
        .containsExactly(new InternetAddress("platform-lead@example.com"));
    assertThat(message.getSubject())
        .isEqualTo("[livegate] approve dev-account/us-west-2/env-one/bar (dév)?");
    assertThat(message.getContentType()).startsWith("multipart/alternative");
    Multipart parts = (Multipart) message.getContent();
    assertThat(parts.getCount()).isEqualTo(2);
    BodyPart text = parts.getBodyPart(0);
    BodyPart html = parts.getBodyPart(1);
    assertThat(text.isMimeType("text/plain")).isTrue();
    assertThat(html.isMimeType("text/html")).isTrue();
    assertThat(((String) text.getContent()).replace("\r\n", "\n"))
        .isEqualTo(
            "livegate asks you to vote on a deployment.\n\n"
                + "Unit:    dev-account/us-west-2/env-one/bar\n"
                + "Account: dév\n"
                + "Commit:  9c1e5f0a2b3c\n"
                + "PR:      acme/live#42\n"
                + "Plan:    1 to add, 2 to change, 3 to destroy\n"
                + "New providers: terraform.io/builtin/terraform\n"
                + "Console: "
                + CONSOLE
                + "\n\n"
                + "Approve: "
                + APPROVE
                + "\nReject:  "
                + REJECT
                + "\n\nEach link opens a page that shows the plan and asks you to confirm;"
                + " opening it changes nothing.\n");
    assertThat((String) html.getContent())
        .contains("<tr><td>Commit</td><td><code>9c1e5f0a2b3c</code></td></tr>")
        .contains("<tr><td>PR</td><td>acme/live#42</td></tr>")
        .contains("<tr><td>Plan</td><td>1 to add, 2 to change, 3 to destroy</td></tr>")
        .contains("<a href=\"" + CONSOLE + "\">" + CONSOLE + "</a>")
        .contains("href=\"" + APPROVE.replace("&", "&amp;") + "\"><b>Approve</b></a>")
        .contains("href=\"" + REJECT.replace("&", "&amp;") + "\"><b>Reject</b></a>");

    SentMail mail = SentMail.read(file);
    assertThat(mail.unit()).isEqualTo("dev-account/us-west-2/env-one/bar");
    assertThat(mail.approveLink()).isEqualTo(APPROVE);
    assertThat(mail.rejectLink()).isEqualTo(REJECT);
  }

  @Test
  void aVoterAddressCannotAddHeadersAndTheFileNameStaysInTheOutbox() throws Exception {
    Path file =
        new Outbox(outbox, Optional.empty())
            .voteRequest(
                execution("app", "dev"),
                "a@example.com\r\nBcc: mallory@example.com/../../x",
                VoteMail.of(
                    execution("app", "dev"),
                    new PlanSummary(0, 0, 0, List.of()),
                    null,
                    "",
                    "",
                    APPROVE,
                    REJECT));

    assertThat(file.getParent()).isEqualTo(outbox);
    MimeMessage message = SentMail.parse(file);
    assertThat(message.getHeader("Bcc")).isNull();
    try (Stream<Path> files = Files.list(outbox)) {
      assertThat(files).containsExactly(file);
    }
  }

  private static Execution execution(String unit, String account) {
    return Executions.of(7, unit, account, ExecutionStatus.RUNNING, List.of(), null);
  }
}
