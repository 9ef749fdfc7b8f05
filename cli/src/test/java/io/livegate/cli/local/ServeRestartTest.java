package io.livegate.cli.local;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.livegate.core.deploy.Deployment;
import io.livegate.core.deploy.DeploymentStatus;
import io.livegate.scan.testing.TestRepo;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code livegate serve} killed with SIGKILL in the middle of an apply, then started again: the
 * deployment continues where it stopped and applies every unit once, the queue and the lock are
 * intact, and a delivery GitHub sends again after the restart is processed once.
 */
@Tag("crash")
@Tag("terraform")
class ServeRestartTest {
  private static final List<String> UNITS = List.of("app/a", "app/b", "app/c");

  @TempDir Path dir;

  @Test
  void aServeKilledMidDeploymentFinishesItAfterARestartAndARedeliveryIsProcessedOnce()
      throws Exception {
    Path oracle = dir.resolve("oracle.log");
    TestRepo repo = TestRepo.create(dir.resolve("live"));
    String base = repo.commit("empty");
    for (String unit : UNITS) {
      LiveRepos.oracleUnit(repo, unit, "v1", oracle);
    }
    String first = repo.commit("three units");
    LiveRepos.oracleUnit(repo, "app/a", "v2", oracle);
    String second = repo.commit("change app/a");
    List<String> arguments =
        ServeProcess.oneAccount(
            dir, repo.root(), dir.resolve("state"), "--auto-approve", "--parallelism", "1");
    ObjectNode merge = ServeProcess.merged(11, first, base);
    ObjectNode redelivered = ServeProcess.merged(12, second, first);

    try (ServeProcess serve = ServeProcess.start(arguments)) {
      HttpResponse<String> merged = serve.deliver(merge, "delivery-11");
      assertThat(merged.statusCode()).as(merged.body()).isEqualTo(200);
      serve.awaitLine("[app/b] Apply");
      serve.close();
    }

    try (ServeProcess restarted = ServeProcess.start(arguments)) {
      restarted.awaitLine(first + ": success (deployment");
      HttpResponse<String> once = restarted.deliver(redelivered, "delivery-12");
      HttpResponse<String> again = restarted.deliver(redelivered, "delivery-12");
      assertThat(once.statusCode()).as(once.body()).isEqualTo(200);
      assertThat(again.body())
          .as("the redelivery")
          .contains("duplicate: delivery delivery-12 was handled");
      restarted.awaitLine(second + ": success (deployment");
    }

    Recorded recorded = Recorded.in(dir.resolve("state"));
    assertThat(recorded.deployments())
        .extracting(Deployment::status)
        .containsExactly(DeploymentStatus.SUCCEEDED, DeploymentStatus.SUCCEEDED);
    assertThat(LiveRepos.oracleApplies(oracle))
        .as("each unit applied once by the first merge, app/a again by the second")
        .isEqualTo(Map.of("app/a v1", 1, "app/b v1", 1, "app/c v1", 1, "app/a v2", 1));
  }
}
