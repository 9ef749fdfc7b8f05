package io.livegate.tests.aws;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.livegate.core.deploy.Deployment;
import io.livegate.core.deploy.DeploymentStatus;
import io.livegate.core.deploy.Execution;
import io.livegate.core.deploy.ExecutionStatus;
import io.livegate.core.deploy.StatusTexts;
import io.livegate.core.testing.RecordingStatuses;
import io.livegate.core.vote.Vote;
import io.livegate.process.TerraformState;
import io.livegate.scan.testing.TestRepo;
import io.livegate.tests.moto.MotoServer;
import io.livegate.tests.scenarios.LiveRepos;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Trunk order on AWS (docs/operations.md, "a merge whose delivery was lost"), on moto running the
 * real ASL with merges delivered to the webhook Lambda as production wires it: a merge whose
 * delivery failed (503) and was never redelivered is deployed by the next merge's deployment, in
 * dependency order, each unit once; the lost delivery redelivered afterwards is recorded as covered
 * and deploys nothing.
 */
@Timeout(value = 20, unit = TimeUnit.MINUTES)
@Tag("moto")
@Tag("terraform")
class AwsTrunkOrderTest {
  @RegisterExtension static final MotoServer MOTO = new MotoServer();

  @TempDir Path dir;

  private MotoDeployment flow;

  @BeforeEach
  void resetMoto() {
    MOTO.reset();
  }

  @AfterEach
  void closeClients() {
    if (flow != null) {
      flow.close();
    }
  }

  @Test
  void aMergeWhoseDeliveryFailedIsDeployedByTheNextMergeInOrderEachUnitOnce() {
    flow =
        new MotoDeployment(
            MOTO,
            dir,
            LiveRepos.apps(dir.resolve("live")),
            MotoDeployment.Settings.of(Duration.ofMinutes(10)));
    flow.deploy();
    flow.drive(execution -> Vote.Choice.APPROVE);
    assertThat(flow.deploymentStatus()).isEqualTo(DeploymentStatus.SUCCEEDED);
    String deployed = flow.repo.head();
    String first;
    String second;
    try (TestRepo repo = TestRepo.create(flow.repo.root())) {
      repo.write("app/a/main.tf", resource("a v2"));
      first = repo.commit("merge #2: a at v2, its delivery lost");
      repo.write("app/d/main.tf", resource("d v2"));
      second = repo.commit("merge #3: d at v2");
    }

    // The metadb refuses the merge's record while its delivery is handled: the webhook answers
    // 503 and forgets the delivery, and nobody redelivers it.
    flow.metadb.jdbi().useHandle(h -> h.execute("ALTER TABLE deployments RENAME TO away"));
    JsonNode lost;
    try {
      lost = flow.deliverMerge(2, deployed, first);
    } finally {
      flow.metadb.jdbi().useHandle(h -> h.execute("ALTER TABLE away RENAME TO deployments"));
    }
    assertThat(lost.get("statusCode").asInt()).as(lost.toString()).isEqualTo(503);
    assertThat(lost.get("body").asText()).startsWith("not handled, redeliver it: ");
    assertThat(flow.deployments()).hasSize(1);

    JsonNode next = flow.deliverMerge(3, first, second);
    assertThat(next.get("statusCode").asInt()).as(next.toString()).isEqualTo(200);
    Deployment third = flow.driveTheDeploymentOf(3);

    assertThat(third.status()).isEqualTo(DeploymentStatus.SUCCEEDED);
    assertThat(third.rangeBase()).as("from the last deployed commit").isEqualTo(deployed);
    List<Execution> executions = flow.metadb.executions().list(third.id());
    assertThat(executions)
        .as("merge #2's a (and its dependents b, c) with merge #3's d, each once")
        .extracting(Execution::unit, Execution::status)
        .containsExactlyInAnyOrder(
            org.assertj.core.groups.Tuple.tuple("app/a", ExecutionStatus.SUCCEEDED),
            org.assertj.core.groups.Tuple.tuple("app/b", ExecutionStatus.SUCCEEDED),
            org.assertj.core.groups.Tuple.tuple("app/c", ExecutionStatus.SUCCEEDED),
            org.assertj.core.groups.Tuple.tuple("app/d", ExecutionStatus.SUCCEEDED));
    Map<Long, Execution> byId =
        executions.stream().collect(Collectors.toMap(Execution::id, Function.identity()));
    for (Execution execution : executions) {
      for (long dependency : execution.dependsOn()) {
        assertThat(execution.startedAt())
            .as("%s starts after %s", execution.unit(), byId.get(dependency).unit())
            .isAfterOrEqualTo(byId.get(dependency).finishedAt());
      }
    }
    Path repository = flow.workspace().resolve("repository");
    assertThat(TerraformState.resources(repository.resolve("app/a")))
        .hasEntrySatisfying(
            "terraform_data.this",
            values -> assertThat(values.path("input").asText()).isEqualTo("a v2"));
    assertThat(TerraformState.resources(repository.resolve("app/d")))
        .hasEntrySatisfying(
            "terraform_data.this",
            values -> assertThat(values.path("input").asText()).isEqualTo("d v2"));
    assertThat(flow.commitStatuses().of(StatusTexts.DEPLOY))
        .filteredOn(status -> status.sha().equals(second))
        .extracting(RecordingStatuses.Status::description)
        .first()
        .isEqualTo(
            "deployment "
                + third.id()
                + ": 4 units, with 1 earlier trunk commits not deployed yet");

    // Redelivered by hand once the failure is seen: already deployed, so covered; nothing runs.
    JsonNode redelivered = flow.deliverMerge(2, deployed, first);
    assertThat(redelivered.get("statusCode").asInt()).as(redelivered.toString()).isEqualTo(200);
    Deployment late = flow.driveTheDeploymentOf(2);

    assertThat(late.status()).isEqualTo(DeploymentStatus.SUCCEEDED);
    assertThat(late.coveredBy()).isEqualTo(third.id());
    assertThat(flow.metadb.executions().list(late.id())).isEmpty();
    assertThat(flow.deployments())
        .extracting(deployment -> deployment.pullRequest().number())
        .containsExactly(1, 3, 2);
    assertThat(flow.sfnStatuses()).as("4 flows of the first merge, 4 of the next").hasSize(8);
    assertThat(TerraformState.resources(repository.resolve("app/a")))
        .hasEntrySatisfying(
            "terraform_data.this",
            values -> assertThat(values.path("input").asText()).isEqualTo("a v2"));
    assertThat(flow.lock.current()).isEmpty();
  }

  private static String resource(String input) {
    return "resource \"terraform_data\" \"this\" {\n  input = \"" + input + "\"\n}\n";
  }
}
