package io.livegate.cli.local;

import static org.assertj.core.api.Assertions.assertThat;

import io.livegate.cli.CliRun;
import io.livegate.core.deploy.DeploymentStatus;
import io.livegate.core.deploy.ExecutionStatus;
import io.livegate.core.flow.FlowState;
import io.livegate.core.testing.FlowPath;
import io.livegate.process.TerraformState;
import io.livegate.scan.testing.TestRepo;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Voters reject one unit through the vote pages: its dependents are aborted, the rest of the
 * deployment still applies, and the deployment ends rejected.
 */
@Timeout(value = 20, unit = TimeUnit.MINUTES)
@Tag("terraform")
class LocalDeployRejectionTest {
  @TempDir Path dir;

  @Test
  void aRejectedUnitAbortsItsDependentsWhileIndependentUnitsStillApply() throws Exception {
    Path state = dir.resolve("state");
    Path outbox = state.resolve("outbox");
    TestRepo repo = LiveRepos.devAccountChange(dir.resolve("live"));
    Path accounts = LiveRepos.devAccountFile(dir);
    CompletableFuture<CliRun> deploy =
        CompletableFuture.supplyAsync(
            () ->
                CliRun.withPath(
                    "deploy",
                    "--repo",
                    repo.root().toString(),
                    "--base",
                    "HEAD~1",
                    "--runner",
                    "terraform",
                    "--port",
                    "0",
                    "--parallelism",
                    "2",
                    "--vote-timeout",
                    "PT2M",
                    "--accounts",
                    accounts.toString(),
                    "--state-dir",
                    state.toString()));

    Map<String, Integer> answers = new TreeMap<>();
    Set<String> tokens = new HashSet<>();
    Set<Path> handled = new HashSet<>();
    while (!deploy.isDone()) {
      if (Files.isDirectory(outbox)) {
        for (SentMail mail : SentMail.in(outbox)) {
          if (handled.add(mail.file())) {
            assertThat(mail.voter()).isEqualTo("lead@example.com");
            tokens.add(token(mail.approveLink()));
            tokens.add(token(mail.rejectLink()));
            boolean reject = mail.unit().equals(LiveRepos.DEV_BAR);
            String link = reject ? mail.rejectLink() : mail.approveLink();
            HttpResponse<String> page = VoteClient.open(link);
            assertThat(page.statusCode()).as(page.body()).isEqualTo(200);
            assertThat(page.body()).contains(mail.unit()).contains("id=\"confirm\"");
            HttpResponse<String> vote = VoteClient.confirm(link);
            answers.put(mail.unit(), vote.statusCode());
            assertThat(vote.body())
                .contains("Your " + (reject ? "reject" : "approve") + " is recorded")
                .contains("It decided the vote: <b>" + (reject ? "rejected" : "approved"));
          }
        }
      }
      Thread.sleep(100);
    }
    CliRun run = deploy.get();

    assertThat(run.exitCode()).as(run.toString()).isEqualTo(1);
    assertThat(tokens).hasSize(8);
    for (String token : tokens) {
      assertThat(run.out() + run.err()).as("the log shows no voter's link").doesNotContain(token);
    }
    assertThat(run.out()).contains("vote requested from 1 voter");
    assertThat(answers)
        .containsOnlyKeys(
            LiveRepos.DEV_GLOBAL, LiveRepos.DEV_BAZ, LiveRepos.DEV_DOO, LiveRepos.DEV_BAR)
        .containsValues(200);
    assertThat(run.out())
        .containsPattern(LiveRepos.DEV_BAR + " +rejected ")
        .containsPattern(LiveRepos.DEV_FOO + " +aborted +- +- +- +-")
        .containsPattern(LiveRepos.DEV_DOO + " +succeeded ")
        .containsPattern(LiveRepos.DEV_GLOBAL + " +succeeded ")
        .contains("deployment 1: rejected");

    Recorded recorded = Recorded.in(state);
    assertThat(recorded.deployment().status()).isEqualTo(DeploymentStatus.REJECTED);
    assertThat(recorded.execution(LiveRepos.DEV_BAR).status()).isEqualTo(ExecutionStatus.REJECTED);
    assertThat(recorded.execution(LiveRepos.DEV_BAR).decision()).isEqualTo("rejected");
    assertThat(recorded.execution(LiveRepos.DEV_FOO).status()).isEqualTo(ExecutionStatus.ABORTED);
    assertThat(recorded.events(recorded.execution(LiveRepos.DEV_FOO))).isEmpty();
    assertThat(recorded.execution(LiveRepos.DEV_DOO).status()).isEqualTo(ExecutionStatus.SUCCEEDED);
    FlowPath.requireComplete(
        recorded.events(recorded.execution(LiveRepos.DEV_BAR)), FlowState.REJECTED);
    assertThat(recorded.rollbacks()).isEmpty();

    assertThat(TerraformState.resources(repo.root().resolve(LiveRepos.DEV_DOO)))
        .containsOnlyKeys("terraform_data.doo");
    assertThat(TerraformState.resources(repo.root().resolve(LiveRepos.DEV_BAR))).isEmpty();
    assertThat(repo.root().resolve(LiveRepos.DEV_FOO).resolve("terraform.tfstate")).doesNotExist();
  }

  /** The signed part of a vote link: whoever has it can vote. */
  private static String token(String link) {
    return link.substring(link.indexOf('=') + 1);
  }
}
