package io.livegate.cli.local;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.livegate.cli.CliRun;
import io.livegate.cli.Livegate;
import io.livegate.scan.repo.GitRepo;
import io.livegate.scan.testing.TestRepo;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code livegate status}: what a deployment was, why it failed, and what a running one has done so
 * far, read while the run holds the state directory.
 */
@Timeout(value = 4, unit = TimeUnit.MINUTES)
@Tag("terraform")
class StatusCliTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String TIME = "\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d(\\.\\d+)?Z";

  @TempDir Path dir;

  @Test
  void statusNamesTheDeploymentItsTriggerCommitsTimesAndWhyItFailed() throws Exception {
    Path state = dir.resolve("state");
    TestRepo repo = LiveRepos.failingApply(dir.resolve("live"));
    assertThat(CliRun.autoApprovedDeploy(repo.root(), state).exitCode()).isEqualTo(1);

    CliRun status = CliRun.of("status", "1", "--state-dir", state.toString());

    assertThat(status.exitCode()).as(status.toString()).isZero();
    assertThat(status.err()).isEmpty();
    List<String> lines = status.out().lines().toList();
    String base;
    String head;
    try (GitRepo git = GitRepo.open(repo.root())) {
      base = git.resolve("HEAD~1").substring(0, 12);
      head = git.resolve("HEAD").substring(0, 12);
    }
    assertThat(lines.subList(0, 4))
        .containsExactly(
            "deployment 1: failed",
            "  repository  " + repo.root().toRealPath(),
            "  trigger     livegate deploy of HEAD~1..HEAD",
            "  commits     " + base + ".." + head);
    assertThat(lines.get(4)).matches("  queued      " + TIME);
    assertThat(lines.get(5)).matches("  started     " + TIME);
    assertThat(lines.get(6)).matches("  finished    " + TIME + " \\(took \\d+\\.\\ds\\)");
    assertThat(lines.get(7)).isEqualTo("  failed      app/b: apply exited with 1:");
    int table =
        lines.indexOf(lines.stream().filter(l -> l.startsWith("  unit ")).findFirst().get());
    assertThat(String.join("\n", lines.subList(8, table)))
        .as("terraform's error, under the unit")
        .startsWith("              ")
        .contains("postcondition");
    assertThat(lines.get(table)).matches("  unit +status +duration +add +change +destroy");
    Path log =
        state
            .toRealPath()
            .resolve("logs")
            .resolve(Recorded.in(state).execution("app/b").name() + ".log");
    assertThat(lines.get(table - 1)).isEqualTo("  log         " + log);
    assertThat(Files.readString(log))
        .as("the failed apply's output is kept after the run")
        .containsPattern("--- \\S+  terraform -chdir=app/b apply .*\\(exit 1\\)\n")
        .contains("postcondition");
    assertThat(status.out()).containsPattern("\n  app/b +failed ");

    JsonNode json =
        JSON.readTree(CliRun.of("status", "--json", "--state-dir", state.toString()).out());
    JsonNode deployment = json.get("deployments").get(0);
    assertThat(deployment.get("id").asLong()).isEqualTo(1);
    assertThat(deployment.get("status").asText()).isEqualTo("failed");
    assertThat(deployment.get("trigger").asText()).isEqualTo("livegate deploy of HEAD~1..HEAD");
    assertThat(deployment.get("startedAt").asText()).matches(TIME);
    assertThat(deployment.get("finishedAt").asText()).matches(TIME);
    assertThat(deployment.get("failures").get(0).get("unit").asText()).isEqualTo("app/b");
    assertThat(deployment.get("failures").get(0).get("reason").asText())
        .startsWith("apply exited with 1:\n");
    assertThat(deployment.get("failures").get(0).get("log").asText()).isEqualTo(log.toString());

    CliRun kept = CliRun.of("status", "1", "--log", "app/b", "--state-dir", state.toString());

    assertThat(kept.exitCode()).as(kept.toString()).isZero();
    // app/b's own log, then its rollback's (the destroy of what its failed apply created)
    String own = "log of app/b in deployment 1: " + log + "\n" + Files.readString(log);
    assertThat(kept.out()).startsWith(own);
    String rollback = kept.out().substring(own.length());
    String header = rollback.lines().findFirst().orElseThrow();
    assertThat(header)
        .matches(
            "log of app/b \\(rollback\\) in deployment 1: "
                + Pattern.quote(log.getParent() + "/")
                + "d1-rb-app-b-[0-9a-f]{12}\\.log");
    Path rollbackLog = Path.of(header.substring(header.indexOf(": ") + 2));
    assertThat(rollback).isEqualTo(header + "\n" + Files.readString(rollbackLog));
  }

  @Test
  void aLogOfAUnitThatIsNotThereOrWithoutADeploymentIsAnError() throws Exception {
    Path state = dir.resolve("state");
    TestRepo repo = LiveRepos.failingApply(dir.resolve("live"));
    assertThat(CliRun.autoApprovedDeploy(repo.root(), state).exitCode()).isEqualTo(1);

    CliRun noUnit = CliRun.of("status", "1", "--log", "app/z", "--state-dir", state.toString());
    CliRun noDeployment = CliRun.of("status", "--log", "app/b", "--state-dir", state.toString());
    CliRun asJson =
        CliRun.of("status", "1", "--log", "app/b", "--json", "--state-dir", state.toString());

    assertThat(noUnit.exitCode()).as(noUnit.toString()).isEqualTo(Livegate.EXIT_FAILURE);
    assertThat(noUnit.err())
        .isEqualTo(
            "livegate: deployment 1 has no unit app/z; its units: app/a, app/b, app/d, app/c\n");
    assertThat(noDeployment.exitCode()).isEqualTo(Livegate.EXIT_FAILURE);
    assertThat(noDeployment.err())
        .isEqualTo(
            "livegate: a unit's log is read from one deployment: give its id with the unit\n");
    assertThat(asJson.exitCode()).isEqualTo(Livegate.EXIT_FAILURE);
    assertThat(asJson.err()).isEqualTo("livegate: a log is plain text: ask for it without JSON\n");
  }

  @Test
  void statusOfADeploymentThatIsNotThereIsAnError() {
    Path state = dir.resolve("state");
    new LocalWiring(state).close();

    CliRun status = CliRun.of("status", "7", "--state-dir", state.toString());

    assertThat(status.exitCode()).as(status.toString()).isEqualTo(Livegate.EXIT_FAILURE);
    assertThat(status.err()).isEqualTo("livegate: there is no deployment 7 in " + state + "\n");
  }

  @Test
  void statusReadsWhatARunningDeploymentHasRecordedWhileTheRunHoldsTheStateDirectory()
      throws Exception {
    Path state = dir.resolve("state");
    Path outbox = state.resolve("outbox");
    TestRepo repo = LiveRepos.devAccountChange(dir.resolve("live"));
    CompletableFuture<CliRun> deploy =
        CompletableFuture.supplyAsync(
            () -> CliRun.withPath(CliRun.deployArguments(repo.root(), state, "--port", "0")));
    // The first unit waits for its vote: the run holds the state directory meanwhile.
    while (!Files.isDirectory(outbox) || SentMail.in(outbox).isEmpty()) {
      assertThat(deploy).isNotDone();
      Thread.sleep(100);
    }

    CliRun status = CliRun.of("status", "--state-dir", state.toString());

    assertThat(status.exitCode()).as(status.toString()).isZero();
    assertThat(status.err())
        .startsWith("livegate: a run is using " + state + " (pid ")
        .endsWith("); this is what it has recorded so far\n");
    assertThat(status.out())
        .startsWith("deployment 1: running\n")
        .containsPattern("\n  " + LiveRepos.DEV_GLOBAL + " +running ");

    SentMail mail = SentMail.in(outbox).get(0);
    VoteClient.confirm(mail.rejectLink());
    CliRun run = deploy.get();
    assertThat(run.exitCode()).as(run.toString()).isEqualTo(1);
    assertThat(run.out())
        .contains(
            "votes: each voter's approve and reject links are mailed to "
                + state.toRealPath().resolve("outbox")
                + " (one .eml file per voter and unit); the vote pages are at http://127.0.0.1:");
    // the account names no voters, so the operator votes: their links are printed too
    assertThat(mail.voter()).isEqualTo("operator@localhost");
    assertThat(run.out())
        .contains(
            "["
                + mail.unit()
                + "] vote link for operator@localhost: approve "
                + mail.approveLink()
                + "\n");
  }

  @Test
  void aPortInUseFailsTheDeployBeforeItIsRecorded() throws Exception {
    Path state = dir.resolve("state");
    TestRepo repo = LiveRepos.devAccountChange(dir.resolve("live"));
    try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      int port = taken.getLocalPort();

      CliRun run =
          CliRun.withPath(
              CliRun.deployArguments(
                  repo.root(), state, "--auto-approve", "--port", Integer.toString(port)));

      assertThat(run.exitCode()).as(run.toString()).isEqualTo(Livegate.EXIT_FAILURE);
      assertThat(run.err())
          .startsWith("livegate: cannot listen on 127.0.0.1:" + port + ": ")
          .endsWith(
              "; run it again with --port 0 to take a free port, or --port N for another one\n");
    }
    CliRun status = CliRun.of("status", "--state-dir", state.toString());
    assertThat(status.out()).isEqualTo("no deployments in " + state + "\n");
  }
}
