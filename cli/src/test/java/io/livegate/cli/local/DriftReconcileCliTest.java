package io.livegate.cli.local;

import static org.assertj.core.api.Assertions.assertThat;

import io.livegate.cli.CliRun;
import io.livegate.core.runner.Command;
import io.livegate.core.runner.CommandResult;
import io.livegate.core.scan.testing.TestRepo;
import io.livegate.core.vote.VoteMail;
import io.livegate.process.ProcessCommandRunner;
import jakarta.mail.internet.MimeMessage;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
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
@Timeout(value = 5, unit = TimeUnit.MINUTES)
@Tag("terraform")
class DriftReconcileCliTest {
  @TempDir static Path dir;
  private static TestRepo repo;
  private static CliRun deployed;
  private static CliRun reconciled;
  private static CliRun after;

  @BeforeAll
  static void deployChangeOneResourceOutOfBandThenReconcile() {
    repo = TestRepo.create(dir.resolve("live"));
    repo.write("README.md", "apps\n");
    repo.write(".gitignore", ".terraform/\n.terraform.lock.hcl\nterraform.tfstate*\n");
    repo.commit("empty");
    for (String unit : List.of("a", "b")) {
      repo.write("app/" + unit + "/terragrunt.hcl", "inputs = {}\n")
          .write(
              "app/" + unit + "/main.tf",
              "variable \"size\" {\n  default = \"small\"\n}\n\n"
                  + "resource \"terraform_data\" \"this\" {\n  input = var.size\n}\n");
    }
    repo.commit("a and b");
    deployed =
        CliRun.withPath(
            "deploy",
            "--repo",
            repo.root().toString(),
            "--base",
            "HEAD~1",
            "--runner",
            "terraform",
            "--auto-approve",
            "--port",
            "0",
            "--state-dir",
            dir.resolve("state").toString());
    terraform(repo.root().resolve("app/a"), "apply", "-auto-approve", "-var", "size=large");
    reconciled = drift("--reconcile", "--auto-approve", "--port", "0");
    after = drift();
  }

  private static CliRun drift(String... options) {
    List<String> argv =
        new ArrayList<>(
            List.of(
                "drift",
                "--repo",
                repo.root().toString(),
                "--runner",
                "terraform",
                "--parallelism",
                "2",
                "--state-dir",
                dir.resolve("state").toString()));
    argv.addAll(List.of(options));
    return CliRun.withPath(argv.toArray(String[]::new));
  }

  @Test
  void theDriftedUnitAloneIsReappliedAfterItsVoteAndASecondDriftRunIsInSync() {
    assertThat(deployed.exitCode()).as(deployed.toString()).isZero();
    assertThat(reconciled.exitCode()).as(reconciled.toString()).isZero();
    assertThat(reconciled.out()).contains("drifted app/a  [default]");
    assertThat(reconciled.err())
        .contains("(drift reconcile): 1 units in 1 layers")
        .contains("app/a")
        .doesNotContain("app/b: plan");
    assertThat(after.exitCode()).as(after.toString()).isZero();
    assertThat(after.out()).contains("2 units planned, 0 drifted");
  }

  @Test
  void theVoteMailOfTheReconcileSaysItIsADriftReconcile() throws Exception {
    Path outbox = dir.resolve("state").resolve("outbox");
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

  private static void terraform(Path unit, String... arguments) {
    List<String> argv = new ArrayList<>(List.of("terraform", "-chdir=" + unit));
    argv.addAll(List.of(arguments));
    argv.addAll(List.of("-input=false", "-no-color"));
    CommandResult result =
        new ProcessCommandRunner().run(new Command(argv, unit, Map.of(), Duration.ofMinutes(2)));
    if (result.exitCode() != 0) {
      throw new IllegalStateException(String.join(" ", argv) + ":\n" + result.output());
    }
  }
}
