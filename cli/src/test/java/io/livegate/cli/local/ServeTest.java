package io.livegate.cli.local;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.livegate.cli.example.ExampleRepo;
import io.livegate.core.deploy.CommitStatusPublisher.State;
import io.livegate.core.deploy.Deployment;
import io.livegate.core.deploy.DeploymentStatus;
import io.livegate.core.deploy.ExecutionStatus;
import io.livegate.core.deploy.FailurePolicy;
import io.livegate.core.deploy.StatusTexts;
import io.livegate.core.pr.LockScope;
import io.livegate.core.pr.MergeGate;
import io.livegate.core.pr.PullRequestHead;
import io.livegate.core.runner.RunnerArgv;
import io.livegate.core.testing.RecordingStatuses;
import io.livegate.core.webhook.WebhookSettings;
import io.livegate.core.webhook.WebhookSignature;
import io.livegate.scan.config.AccountsFile;
import io.livegate.sql.testing.Webhooks;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code livegate serve}'s pipeline end to end: a signed merge delivery posted over HTTP to {@code
 * /webhook} is queued, takes the metadb lock, is scanned from a real clone of a real git repository
 * and deployed with real terraform (auto-approved); the lock is then released and the open pull
 * request it blocked turns green.
 */
@Tag("terraform")
class ServeTest {

  @TempDir Path dir;

  @Test
  void aMergeDeliveredToTheWebhookIsDeployedAndTheLockPassesOn() throws Exception {
    Path repo = dir.resolve("live");
    ExampleRepo.Commits commits = ExampleRepo.create(repo);
    RecordingStatuses github = new RecordingStatuses();
    List<PullRequestHead> planned = new ArrayList<>();
    try (LocalWiring wiring = new LocalWiring(dir.resolve("state"))) {
      var server = wiring.server(0);
      LocalPipeline.Settings settings =
          new LocalPipeline.Settings(
              repo.toString(),
              AccountsFile.parse(
                  ExampleRepo.ACCOUNTS_FILE,
                  Files.readString(repo.resolve(ExampleRepo.ACCOUNTS_FILE))),
              RunnerArgv.TERRAFORM,
              FailurePolicy.ABORT_DEPENDENTS,
              new LocalDeployer.Settings(2, true, false, Duration.ofMinutes(5)),
              LockScope.REPO,
              0,
              Map.of("TF_IN_AUTOMATION", "1"),
              LocalPipeline.RETRY_LIMIT);
      try (LocalPipeline pipeline =
          new LocalPipeline(wiring, settings, github, java.util.Optional.empty(), line -> {})) {
        server.webhook(
            pipeline.receiver(
                new WebhookSettings(
                    () -> WebhookSignature.secret(Webhooks.SECRET),
                    Webhooks.REPOSITORY,
                    Webhooks.TRUNK,
                    false),
                planned::add));

        ObjectNode merge = Webhooks.merged(11, commits.head());
        ((ObjectNode) merge.get("pull_request").get("base")).put("sha", commits.base());
        HttpResponse<String> merged = post(server.baseUrl(), merge);
        assertThat(merged.statusCode()).isEqualTo(200);
        assertThat(merged.body()).contains("started deployment");

        HttpResponse<String> opened =
            post(server.baseUrl(), Webhooks.opened(12, Webhooks.sha(120)));
        assertThat(opened.statusCode()).isEqualTo(202);
        assertThat(planned).extracting(PullRequestHead::number).containsExactly(12);

        // The lock is released, and the final statuses posted, just after the deployment finishes.
        Deployment deployment =
            awaitFinished(
                wiring,
                () ->
                    mergeLocks(wiring) == 0
                        && github.of(StatusTexts.DEPLOY).stream()
                            .anyMatch(status -> status.state() != State.PENDING)
                        && github.of(MergeGate.CONTEXT).stream()
                            .anyMatch(status -> status.state() == State.SUCCESS));
        assertThat(deployment.status()).isEqualTo(DeploymentStatus.SUCCEEDED);
        assertThat(deployment.pullRequest().mergeCommit()).isEqualTo(commits.head());
        assertThat(wiring.executions.list(deployment.id()))
            .isNotEmpty()
            .allSatisfy(e -> assertThat(e.status()).isEqualTo(ExecutionStatus.SUCCEEDED));
        assertThat(mergeLocks(wiring)).isZero();
        assertThat(github.of(MergeGate.CONTEXT))
            .filteredOn(status -> status.sha().equals(Webhooks.sha(120)))
            .extracting(status -> status.state() + " " + status.description())
            .containsExactly(
                "PENDING deployment of PR #11 in progress", "SUCCESS no deployment in progress");
        assertThat(github.of(MergeGate.CONTEXT).get(0).state()).isEqualTo(State.PENDING);
        assertThat(github.of(StatusTexts.DEPLOY))
            .extracting(status -> status.sha() + " " + status.state() + " " + status.description())
            .containsExactly(
                commits.head() + " PENDING deployment " + deployment.id() + ": 10 units",
                commits.head() + " SUCCESS deployment " + deployment.id() + " succeeded");
      }
    }
  }

  /**
   * Waits until the deployment finishes; fails when no execution changed its status for {@link
   * ChildJvm#STUCK}, however long the whole run takes on a loaded machine.
   */
  private static long mergeLocks(LocalWiring wiring) {
    return wiring
        .metadb
        .metadb()
        .jdbi()
        .withHandle(h -> h.createQuery("SELECT count(*) FROM merge_locks").mapTo(Long.class).one());
  }

  /** Waits until the deployment has finished and {@code settled} holds: the events after it. */
  private static Deployment awaitFinished(LocalWiring wiring, BooleanSupplier settled)
      throws InterruptedException {
    List<Object> seen = List.of();
    Instant progressed = Instant.now();
    while (true) {
      List<Deployment> all = wiring.deployments.list(Webhooks.REPOSITORY);
      if (!all.isEmpty() && all.get(0).status().isFinished() && settled.getAsBoolean()) {
        return wiring.deployments.find(all.get(0).id()).orElseThrow();
      }
      List<Object> now = new ArrayList<>();
      for (Deployment deployment : all) {
        now.add(deployment.status());
        wiring.executions.list(deployment.id()).forEach(e -> now.add(e.unit() + " " + e.status()));
      }
      if (!now.equals(seen)) {
        seen = now;
        progressed = Instant.now();
      } else if (Instant.now().isAfter(progressed.plus(ChildJvm.STUCK))) {
        throw new AssertionError(
            "the deployment made no progress for "
                + ChildJvm.STUCK
                + ", or it finished and its lock or final statuses did not follow: "
                + now);
      }
      Thread.sleep(200);
    }
  }

  private static HttpResponse<String> post(String baseUrl, ObjectNode payload)
      throws IOException, InterruptedException {
    return ServeProcess.deliver(baseUrl + "/webhook", payload, UUID.randomUUID().toString());
  }
}
