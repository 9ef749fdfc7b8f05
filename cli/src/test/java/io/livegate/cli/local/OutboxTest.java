package io.livegate.cli.local;

import static org.assertj.core.api.Assertions.assertThat;

import io.livegate.core.deploy.Execution;
import io.livegate.core.deploy.ExecutionStatus;
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
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class OutboxTest {
  private static final String APPROVE = "http://127.0.0.1:8741/vote?t=YXBwcm92ZQ.c2ln&x=1";
  private static final String REJECT = "http://127.0.0.1:8741/vote?t=cmVqZWN0.c2ln&x=1";

  @TempDir Path outbox;

  @Test
  void aVoteRequestIsAMultipartMessageWithBothLinksInTextAndHtml() throws Exception {
    Path file =
        new Outbox(outbox)
            .voteRequest(
                execution("dev-account/us-west-2/env-one/bar", "dév"),
                "platform-lead@example.com",
                VoteMail.of(
                    execution("dev-account/us-west-2/env-one/bar", "dév"),
                    new PlanSummary(1, 2, 3, List.of("terraform.io/builtin/terraform")),
                    null,
                    "",
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
    assertThat((String) text.getContent())
        .contains("Approve: " + APPROVE)
        .contains("Reject:  " + REJECT)
        .contains("Plan:    +1 ~2 -3")
        .contains("New providers: terraform.io/builtin/terraform");
    assertThat((String) html.getContent())
        .contains("href=\"" + APPROVE.replace("&", "&amp;") + "\"")
        .contains("href=\"" + REJECT.replace("&", "&amp;") + "\"");

    SentMail mail = SentMail.read(file);
    assertThat(mail.unit()).isEqualTo("dev-account/us-west-2/env-one/bar");
    assertThat(mail.approveLink()).isEqualTo(APPROVE);
    assertThat(mail.rejectLink()).isEqualTo(REJECT);
  }

  @Test
  void aVoterAddressCannotAddHeadersAndTheFileNameStaysInTheOutbox() throws Exception {
    Path file =
        new Outbox(outbox)
            .voteRequest(
                execution("app", "dev"),
                "a@example.com\r\nBcc: mallory@example.com/../../x",
                VoteMail.of(
                    execution("app", "dev"),
                    new PlanSummary(0, 0, 0, List.of()),
                    null,
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
