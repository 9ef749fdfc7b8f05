package io.livegate.cli.local;

import static org.assertj.core.api.Assertions.assertThat;

import io.livegate.core.account.Accounts;
import io.livegate.core.deploy.FailurePolicy;
import io.livegate.core.pr.LockScope;
import io.livegate.core.pr.PullRequestHead;
import io.livegate.core.runner.RunnerArgv;
import io.livegate.core.testing.RecordingStatuses;
import io.livegate.core.webhook.WebhookSettings;
import io.livegate.core.webhook.WebhookSignature;
import io.livegate.sql.testing.Webhooks;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Clients that connect and then send nothing, or half a request, must not starve GitHub's
 * deliveries or the votes: a functional check, not a benchmark. A server they starve answers only
 * once it has cut them (the JDK server did, after its {@code maxReqTime}); so the check is that the
 * answers come while every slow connection is still held open, however long a loaded machine takes.
 * {@code ServerUnderLoadTest} does the same with 2,000 of them and big bodies besides.
 */
class SlowClientsTest {
  private static final int HELD = 50;

  @TempDir Path dir;

  @Test
  void aDeliveryAndAVoteAreAnsweredWhileFiftySlowConnectionsAreHeldOpen() throws Exception {
    List<PullRequestHead> planned = new CopyOnWriteArrayList<>();
    List<Socket> held = new ArrayList<>();
    try (LocalWiring wiring = new LocalWiring(dir.resolve("state"))) {
      VoteServer server = wiring.server(0);
      LocalPipeline.Settings settings =
          new LocalPipeline.Settings(
              dir.resolve("live").toString(),
              Accounts.wholeRepository(),
              RunnerArgv.TERRAFORM,
              FailurePolicy.ABORT_DEPENDENTS,
              new LocalDeployer.Settings(1, false, false, Duration.ofMinutes(5)),
              LockScope.REPO,
              0,
              Map.of(),
              LocalPipeline.RETRY_LIMIT);
      try (LocalPipeline pipeline =
          new LocalPipeline(wiring, settings, new RecordingStatuses(), Optional.empty(), l -> {})) {
        server.webhook(
            pipeline.receiver(
                new WebhookSettings(
                    () -> WebhookSignature.secret(Webhooks.SECRET),
                    Webhooks.REPOSITORY,
                    Webhooks.TRUNK,
                    false),
                planned::add));
        // warmed up first: the bound is about slow clients, not about loading classes
        assertThat(deliver(server, 11).statusCode()).isEqualTo(202);
        URI base = URI.create(server.baseUrl());
        for (int i = 0; i < HELD; i++) {
          Socket socket = new Socket(base.getHost(), base.getPort());
          held.add(socket);
          if (i % 2 == 0) {
            // half a request: the headers never end
            OutputStream out = socket.getOutputStream();
            out.write(
                "POST /webhook HTTP/1.1\r\nHost: x\r\nContent-Length: 10\r\n"
                    .getBytes(StandardCharsets.US_ASCII));
            out.flush();
          }
        }

        long start = System.nanoTime();
        HttpResponse<String> delivered = deliver(server, 12);
        HttpResponse<String> vote = VoteClient.confirm(server.baseUrl() + "/vote?t=forged");
        Duration took = Duration.ofNanos(System.nanoTime() - start);
        for (Socket socket : held) {
          assertThat(ServerLoad.stillOpen(socket))
              .as("the answers came while the slow connections were held (after %s)", took)
              .isTrue();
        }

        System.out.println(
            "with " + HELD + " slow connections held: delivery and vote answered in " + took);
        assertThat(delivered.statusCode()).as(delivered.body()).isEqualTo(202);
        assertThat(planned).extracting(PullRequestHead::number).containsExactly(11, 12);
        assertThat(vote.body()).contains("This vote link is not valid");
        assertThat(vote.headers().firstValue("Referrer-Policy")).hasValue("no-referrer");
        assertThat(vote.headers().firstValue("Content-Security-Policy"))
            .hasValueSatisfying(policy -> assertThat(policy).contains("frame-ancestors 'none'"));
      } finally {
        for (Socket socket : held) {
          socket.close();
        }
      }
    }
  }

  private static HttpResponse<String> deliver(VoteServer server, int pullRequest) {
    try {
      return ServeProcess.deliver(
          server.baseUrl() + "/webhook",
          Webhooks.opened(pullRequest, Webhooks.sha(pullRequest * 10)),
          UUID.randomUUID().toString());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }
}
