package io.livegate.cli.local;

import static org.assertj.core.api.Assertions.assertThat;

import io.livegate.core.deploy.Deployment;
import io.livegate.core.deploy.DeploymentStatus;
import io.livegate.scan.testing.TestRepo;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code livegate serve} deploys the trunk in its first-parent order whatever order GitHub's
 * deliveries come in: a merge delivered after a later merge was deployed is covered by that
 * deployment and never deploys its older code over the newer, and a merge whose delivery never came
 * is deployed by the next merge's deployment. The oracle is each unit's provisioner, which logs
 * every apply.
 */
@Tag("terraform")
class ServeTrunkOrderTest {

  @TempDir Path dir;

  private Path oracle;
  private TestRepo repo;

  /** The trunk's first commit, empty. */
  private String empty;

  /** Merge 0, which adds app/a and app/b at v1. */
  private String first;

  @BeforeEach
  void trunkWhoseFirstMergeAddsAAndB() {
    oracle = dir.resolve("oracle.log");
    repo = TestRepo.create(dir.resolve("live"));
    empty = repo.commit("empty");
    LiveRepos.oracleUnit(repo, "app/a", "v1", oracle);
    LiveRepos.oracleUnit(repo, "app/b", "v1", oracle);
    first = repo.commit("merge 0: add a and b");
  }

  @Test
  void aMergeDeliveredAfterTheNextOneIsCoveredAndItsUnitsEndAtTheNextMergesCode() throws Exception {
    LiveRepos.oracleUnit(repo, "app/a", "v2", oracle);
    LiveRepos.oracleUnit(repo, "app/b", "v2", oracle);
    String second = repo.commit("merge 1: a and b at v2");
    LiveRepos.oracleUnit(repo, "app/a", "v3", oracle);
    LiveRepos.oracleUnit(repo, "app/b", "v3", oracle);
    String third = repo.commit("merge 2: a and b at v3");

    String log;
    try (ServeProcess serve = serveWithTheFirstMergeDeployed()) {
      deliver(serve, 12, third, second);
      serve.awaitLine(third + ": success (deployment");
      deliver(serve, 11, second, first);
      serve.awaitLine(second + ": success (deployment");
      log = serve.log();
    }

    assertThat(LiveRepos.oracleApplies(oracle))
        .as("merge 1's code is never applied over merge 2's")
        .isEqualTo(Map.of("app/a v1", 1, "app/b v1", 1, "app/a v3", 1, "app/b v3", 1));
    List<Deployment> deployments = Recorded.in(dir.resolve("state")).deployments();
    assertThat(deployments)
        .extracting(deployment -> deployment.pullRequest().mergeCommit())
        .containsExactly(first, third, second);
    assertThat(deployments).extracting(Deployment::status).containsOnly(DeploymentStatus.SUCCEEDED);
    assertThat(deployments.get(1).rangeBase()).as("merge 2's range").isEqualTo(first);
    assertThat(deployments.get(2).coveredBy())
        .as("merge 1 is covered by merge 2's deployment")
        .isEqualTo(deployments.get(1).id());
    assertThat(log)
        .as("the late merge's status says who deployed it")
        .contains(
            second
                + ": success (deployment "
                + deployments.get(2).id()
                + ": deployed by deployment "
                + deployments.get(1).id()
                + ", delivered later)");
  }

  @Test
  void aMergeWhoseDeliveryIsLostIsDeployedByTheNextMergesDeployment() throws Exception {
    LiveRepos.oracleUnit(repo, "app/a", "v2", oracle);
    String second = repo.commit("merge 1: a at v2, its delivery lost");
    LiveRepos.oracleUnit(repo, "app/b", "v2", oracle);
    String third = repo.commit("merge 2: b at v2");

    try (ServeProcess serve = serveWithTheFirstMergeDeployed()) {
      deliver(serve, 12, third, second);
      serve.awaitLine(third + ": success (deployment");
      assertThat(serve.log())
          .as("the gap is shown")
          .contains("catching up trunk commits whose merges were not delivered (yet): " + second);
    }

    assertThat(LiveRepos.oracleApplies(oracle))
        .as("merge 2's deployment applies merge 1's unit too")
        .isEqualTo(Map.of("app/a v1", 1, "app/b v1", 1, "app/a v2", 1, "app/b v2", 1));
  }

  /** Serve, once merge 0's delivery is deployed. */
  private ServeProcess serveWithTheFirstMergeDeployed() throws Exception {
    ServeProcess serve =
        ServeProcess.start(
            ServeProcess.oneAccount(
                dir, repo.root(), dir.resolve("state"), "--auto-approve", "--parallelism", "1"));
    try {
      deliver(serve, 10, first, empty);
      serve.awaitLine(first + ": success (deployment");
      return serve;
    } catch (Exception | AssertionError e) {
      serve.close();
      throw e;
    }
  }

  private static void deliver(ServeProcess serve, int number, String merge, String base)
      throws Exception {
    HttpResponse<String> answer =
        serve.deliver(ServeProcess.merged(number, merge, base), "delivery-" + number);
    assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
  }
}
