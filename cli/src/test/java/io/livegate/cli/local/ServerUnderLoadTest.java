package io.livegate.cli.local;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;
import java.nio.file.Path;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 24's load on {@code serve} in a 512 MB heap ({@link ServerLoad}): 2,000 slow connections
 * and 40 clients posting 25 MB bodies with a wrong signature, over and over. A functional check:
 * the delivery and the vote are answered while every slow connection is still held (a server they
 * starve answers only once it has cut them), serve is still running (its JVM ends at the first
 * {@code OutOfMemoryError}), and no big body was taken. How long the answers take is measured by
 * {@code ServerLoadBenchmark} (docs/benchmarks.md), not here.
 */
@Tag("slow")
class ServerUnderLoadTest {
  @TempDir Path dir;

  @Test
  void
      aSignedDeliveryAndAVoteAreAnsweredAndNothingRunsOutOfMemoryUnderTwoThousandSlowConnectionsAndFortyBigUnsignedBodies()
          throws Exception {
    try (ServerLoad load = ServerLoad.serve(dir)) {
      assertThat(load.ping().statusCode()).isEqualTo(200);
      load.press();
      // twice as many big bodies answered as there are senders: the load is really on
      while (load.bigAnswered() < 2 * ServerLoad.BIG && load.serveAlive()) {
        Thread.sleep(50);
      }

      HttpResponse<String> delivered = load.ping();
      HttpResponse<String> vote = load.vote();
      int open = load.idleStillOpen();
      System.out.println(
          "under load: "
              + open
              + " slow connections still open, big bodies answered "
              + load.bigAnswers()
              + ", delivery "
              + delivered.statusCode()
              + ", vote "
              + vote.statusCode());

      assertThat(load.serveAlive()).as(load.serveLog()).isTrue();
      assertThat(load.serveLog()).doesNotContain("OutOfMemoryError");
      assertThat(open)
          .as("the answers came while the slow connections were held")
          .isEqualTo(ServerLoad.IDLE);
      assertThat(delivered.statusCode()).as(delivered.body()).isEqualTo(200);
      assertThat(delivered.body()).contains("pong");
      assertThat(vote.body()).contains("This vote link is not valid");
      // refused after reading (401), refused unread (503), or cut while still sending
      assertThat(load.bigAnswers().keySet()).isSubsetOf("401", "503", "closed");
      assertThat(load.bigAnswers()).containsKey("401");
    }
  }
}
