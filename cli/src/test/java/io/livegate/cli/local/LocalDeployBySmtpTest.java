package io.livegate.cli.local;

import static org.assertj.core.api.Assertions.assertThat;

import com.icegreen.greenmail.util.GreenMail;
import com.icegreen.greenmail.util.ServerSetup;
import io.livegate.cli.CliRun;
import io.livegate.core.deploy.DeploymentStatus;
import io.livegate.scan.testing.TestRepo;
import jakarta.mail.internet.InternetAddress;
import jakarta.mail.internet.MimeMessage;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code deploy --smtp-url}: the voter gets each vote request from a real SMTP server (GreenMail,
 * in this JVM), logged in with the credentials of the environment, and votes with its links.
 */
@Timeout(value = 20, unit = TimeUnit.MINUTES)
@Tag("terraform")
class LocalDeployBySmtpTest {
  private static final Pattern APPROVE = Pattern.compile("(?m)^Approve: (\\S+)$");
  private static final Pattern SUBJECT = Pattern.compile("\\[livegate] approve (.+) \\(dev\\)\\?");

  @TempDir Path dir;

  @Test
  void aVoterApprovesEveryUnitFromTheMailTheSmtpServerDelivered() throws Exception {
    GreenMail smtp = new GreenMail(new ServerSetup(0, "127.0.0.1", ServerSetup.PROTOCOL_SMTP));
    smtp.start();
    try {
      smtp.setUser("livegate@example.com", "relay-user", "relay-secret");
      Path state = dir.resolve("state");
      TestRepo repo = LiveRepos.devAccountChange(dir.resolve("live"));
      Path accounts = LiveRepos.devAccountFile(dir);
      Map<String, String> environment = new HashMap<>(System.getenv());
      environment.put(SmtpRelay.USERNAME, "relay-user");
      environment.put(SmtpRelay.PASSWORD, "relay-secret");
      CompletableFuture<CliRun> deploy =
          CompletableFuture.supplyAsync(
              () ->
                  CliRun.inEnvironment(
                      environment,
                      CliRun.deployArguments(
                          repo.root(),
                          state,
                          "--port",
                          "0",
                          "--vote-timeout",
                          "10m",
                          "--accounts",
                          accounts.toString(),
                          "--smtp-url",
                          "smtp://127.0.0.1:" + smtp.getSmtp().getPort(),
                          "--smtp-from",
                          "livegate@example.com")));

      TreeSet<String> approved = new TreeSet<>();
      int handled = 0;
      while (!deploy.isDone()) {
        MimeMessage[] received = smtp.getReceivedMessages();
        for (; handled < received.length; handled++) {
          MimeMessage message = received[handled];
          assertThat(message.getAllRecipients())
              .containsExactly(new InternetAddress("lead@example.com"));
          Matcher subject = SUBJECT.matcher(message.getSubject());
          Matcher approve = APPROVE.matcher(SentMail.text(message));
          assertThat(subject.matches()).as(message.getSubject()).isTrue();
          assertThat(approve.find()).as(SentMail.text(message)).isTrue();
          HttpResponse<String> vote = VoteClient.confirm(approve.group(1));
          assertThat(vote.body()).contains("It decided the vote: <b>approved");
          approved.add(subject.group(1));
        }
        Thread.sleep(100);
      }
      CliRun run = deploy.get();

      assertThat(run.exitCode()).as(run.toString()).isZero();
      assertThat(run.out()).doesNotContain("warning: cannot mail");
      assertThat(approved)
          .containsExactly(
              LiveRepos.DEV_GLOBAL,
              LiveRepos.DEV_BAR,
              LiveRepos.DEV_BAZ,
              LiveRepos.DEV_DOO,
              LiveRepos.DEV_FOO);
      assertThat(Recorded.in(state).deployment().status()).isEqualTo(DeploymentStatus.SUCCEEDED);
    } finally {
      smtp.stop();
    }
  }
}
