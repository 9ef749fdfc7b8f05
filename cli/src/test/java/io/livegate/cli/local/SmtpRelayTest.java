package io.livegate.cli.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.icegreen.greenmail.util.GreenMail;
import com.icegreen.greenmail.util.ServerSetup;
import io.livegate.core.LivegateException;
import io.livegate.core.deploy.Execution;
import io.livegate.core.deploy.ExecutionStatus;
import io.livegate.core.deploy.PlanSummary;
import io.livegate.core.testing.Executions;
import io.livegate.core.vote.VoteMail;
import jakarta.mail.internet.InternetAddress;
import jakarta.mail.internet.MimeMessage;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The outbox's SMTP relay against a real SMTP server (GreenMail) in this JVM: what a voter's mail
 * server receives, and what happens when the relay refuses.
 */
class SmtpRelayTest {
  private static final String VOTER = "lead@example.com";
  private static final String APPROVE = "http://127.0.0.1:8741/vote?t=YXBwcm92ZQ.c2ln";
  private static final String REJECT = "http://127.0.0.1:8741/vote?t=cmVqZWN0.c2ln";

  @TempDir Path outbox;
  private GreenMail smtp;

  @BeforeEach
  void startSmtpServer() {
    // port 0: a free port, on every address, so the test can also reach it off loopback
    smtp = new GreenMail(new ServerSetup(0, "0.0.0.0", ServerSetup.PROTOCOL_SMTP));
    smtp.start();
    smtp.setUser("livegate@example.com", "relay-user", "relay-secret");
  }

  @AfterEach
  void stopSmtpServer() {
    smtp.stop();
  }

  @Test
  void aVoteRequestReachesTheVotersMailboxThroughTheRelayAsTheOutboxWroteIt() throws Exception {
    SmtpRelay relay =
        SmtpRelay.of(
            url("127.0.0.1"),
            "livegate@example.com",
            Map.of(SmtpRelay.USERNAME, "relay-user", SmtpRelay.PASSWORD, "relay-secret"));

    Path file = new Outbox(outbox, Optional.of(relay)).voteRequest(execution(), VOTER, mail());

    assertThat(smtp.waitForIncomingEmail(1)).isTrue();
    MimeMessage received = smtp.getReceivedMessages()[0];
    assertThat(received.getAllRecipients()).containsExactly(new InternetAddress(VOTER));
    assertThat(received.getFrom())
        .containsExactly(new InternetAddress("livegate <livegate@example.com>"));
    assertThat(received.getSubject()).isEqualTo("[livegate] approve app (dev)?");
    assertThat(SentMail.text(received)).isEqualTo(SentMail.text(SentMail.parse(file)));
    assertThat(SentMail.text(received)).contains("Approve: " + APPROVE, "Reject:  " + REJECT);
  }

  @Test
  void aRelayThatRefusesTheLoginLeavesTheMessageInTheOutboxAndSaysWhere() {
    SmtpRelay relay =
        SmtpRelay.of(
            url("127.0.0.1"),
            "livegate@example.com",
            Map.of(SmtpRelay.USERNAME, "relay-user", SmtpRelay.PASSWORD, "wrong"));
    Outbox refused = new Outbox(outbox, Optional.of(relay));

    assertThatThrownBy(() -> refused.voteRequest(execution(), VOTER, mail()))
        .isInstanceOf(Outbox.NotRelayed.class)
        .hasMessageStartingWith("cannot mail " + VOTER + " through " + url("127.0.0.1") + ": ")
        .hasMessageEndingWith(
            "; the message is in " + outbox.resolve(execution().name() + "--" + VOTER + ".eml"));
    assertThat(
            SentMail.read(outbox.resolve(execution().name() + "--" + VOTER + ".eml")).approveLink())
        .isEqualTo(APPROVE);
    assertThat(smtp.getReceivedMessages()).isEmpty();
  }

  @Test
  void aPasswordIsNeverSentInClearToARelayOffThisMachine() throws Exception {
    // GreenMail's plain SMTP offers no STARTTLS: off loopback, the relay must not log in at all
    String host =
        java.net.NetworkInterface.networkInterfaces()
            .flatMap(java.net.NetworkInterface::inetAddresses)
            .filter(address -> address instanceof java.net.Inet4Address)
            .filter(address -> !address.isLoopbackAddress())
            .map(java.net.InetAddress::getHostAddress)
            .findFirst()
            .orElseThrow(() -> new IllegalStateException("this machine has no IPv4 address"));
    SmtpRelay relay =
        SmtpRelay.of(
            url(host),
            "livegate@example.com",
            Map.of(SmtpRelay.USERNAME, "relay-user", SmtpRelay.PASSWORD, "relay-secret"));

    assertThatThrownBy(() -> relay.send(VOTER, "Subject: x\r\n\r\nx\r\n".getBytes()))
        .isInstanceOf(LivegateException.class)
        .hasMessageContaining("STARTTLS");
    assertThat(smtp.getReceivedMessages()).isEmpty();
  }

  @Test
  void anSmtpUrlItCannotUseIsRefusedNamingTheOption() {
    assertThatThrownBy(() -> SmtpRelay.of("http://mail.example.com", "a@example.com", Map.of()))
        .hasMessage(
            "--smtp-url http://mail.example.com must start with smtp:// (STARTTLS when offered)"
                + " or smtps:// (TLS), e.g. smtp://mail.example.com:587");
    assertThatThrownBy(
            () -> SmtpRelay.of("smtp://me:pw@mail.example.com", "a@example.com", Map.of()))
        .hasMessage(
            "--smtp-url smtp://me:pw@mail.example.com must not carry a user or password (the"
                + " command line is visible to other users): set LIVEGATE_SMTP_USERNAME and"
                + " LIVEGATE_SMTP_PASSWORD");
    assertThatThrownBy(
            () -> SmtpRelay.of("smtp://mail.example.com?tls=no", "a@example.com", Map.of()))
        .hasMessage(
            "--smtp-url smtp://mail.example.com?tls=no: the only setting it takes is"
                + " ?starttls=required, not tls=no");
    assertThatThrownBy(
            () ->
                SmtpRelay.of(
                    "smtp://mail.example.com",
                    "a@example.com",
                    Map.of(SmtpRelay.PASSWORD, "secret")))
        .hasMessage("LIVEGATE_SMTP_PASSWORD is set but LIVEGATE_SMTP_USERNAME is not");
    assertThatThrownBy(() -> SmtpRelay.of("smtp://mail.example.com", "not an address", Map.of()))
        .hasMessage("--smtp-from not an address is not a mail address");
  }

  private String url(String host) {
    return "smtp://" + host + ":" + smtp.getSmtp().getPort();
  }

  private static Execution execution() {
    return Executions.of(
        3, "app", "dev", ExecutionStatus.RUNNING, List.of(), new PlanSummary(1, 0, 0, List.of()));
  }

  private static VoteMail mail() {
    return VoteMail.of(
        execution(), new PlanSummary(1, 0, 0, List.of()), null, "", "", APPROVE, REJECT);
  }
}
