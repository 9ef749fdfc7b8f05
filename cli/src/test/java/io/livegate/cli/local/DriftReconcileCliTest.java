package io.livegate.cli.local;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.livegate.cli.CliRun;
import io.livegate.cli.DriftedRepo;
import io.livegate.core.vote.VoteMail;
import jakarta.mail.internet.MimeMessage;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code livegate drift --reconcile} against real terraform: a repository deployed with livegate,
 * one unit's resource changed out of band, then a drift reconcile at the head that the merge
 * already deployed re-applies exactly that unit after its vote, and a second drift run is in sync.
 */
@Timeout(value = 20, unit = TimeUnit.MINUTES)
@Tag("terraform")
class DriftReconcileCliTest {
  @TempDir static Path dir;
  private static DriftedRepo drifted;
  private static CliRun reconciled;
  private static CliRun after;

  @BeforeAll
  static void deployChangeOneResourceOutOfBandThenReconcile() {
    drifted = DriftedRepo.deployThenChangeAOutOfBand(dir);
    String state = drifted.state().toString();
    reconciled =
        drifted.drift(
            "--state-dir",
            state,
            "--format",
            "json",
            "--reconcile",
            "--auto-approve",
            "--port",
            "0");
    after = drifted.drift("--state-dir", state);
  }

  @Test
  void theDriftedUnitAloneIsReappliedAfterItsVoteAndASecondDriftRunIsInSync() {
    assertThat(drifted.deployed().exitCode()).as(drifted.deployed().toString()).isZero();
    assertThat(reconciled.exitCode()).as(reconciled.toString()).isZero();
    assertThat(reconciled.err())
        .contains("(drift reconcile): 1 units in 1 layers")
        .contains("app/a")
        .doesNotContain("app/b: plan");
    assertThat(after.exitCode()).as(after.toString()).isZero();
    assertThat(after.out()).contains("2 units planned, 0 drifted");
  }

  @Test
  void withFormatJsonStdoutIsTheReportAloneAndTheReconcilesSummaryGoesToStderr() throws Exception {
    JsonNode report =
        new ObjectMapper()
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .readTree(reconciled.out());
    assertThat(report.get("drifted"))
        .extracting(drifted -> drifted.get("unit").asText())
        .containsExactly("app/a");
    assertThat(reconciled.err()).contains("status page: ").contains("app/a");
  }

  @Test
  void theVoteMailOfTheReconcileSaysItIsADriftReconcile() throws Exception {
    Path outbox = drifted.state().resolve("outbox");
    List<String> subjects = new ArrayList<>();
    List<String> reconcileTexts = new ArrayList<>();
    for (SentMail mail : SentMail.in(outbox)) {
      MimeMessage message = SentMail.parse(mail.file());
      subjects.add(message.getSubject());
      String text = SentMail.text(message);
      if (text.contains(VoteMail.RECONCILE)) {
        reconcileTexts.add(mail.unit());
      }
    }
    assertThat(subjects)
        .containsOnlyOnce("[livegate] approve (drift reconcile) app/a (default)?")
        .hasSize(3);
    assertThat(reconcileTexts).containsExactly("app/a");
  }
}
