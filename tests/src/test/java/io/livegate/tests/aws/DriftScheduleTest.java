package io.livegate.tests.aws;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.containing;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.matchingJsonPath;
import static com.github.tomakehurst.wiremock.client.WireMock.patch;
import static com.github.tomakehurst.wiremock.client.WireMock.patchRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathMatching;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.wireMockConfig;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import com.fasterxml.jackson.databind.JsonNode;
import com.github.tomakehurst.wiremock.junit5.WireMockExtension;
import io.livegate.core.deploy.CommitStatusPublisher;
import io.livegate.core.deploy.Deployment;
import io.livegate.core.deploy.DeploymentStatus;
import io.livegate.core.deploy.Execution;
import io.livegate.core.deploy.ExecutionStatus;
import io.livegate.core.drift.ReportDrift;
import io.livegate.core.testing.RecordingStatuses;
import io.livegate.core.vote.Vote;
import io.livegate.process.SandboxUserLock;
import io.livegate.statemachine.RuntimeContract;
import io.livegate.tasks.TaskWiring;
import io.livegate.tests.moto.MotoServer;
import io.livegate.tests.scenarios.LiveRepo;
import io.livegate.tests.scenarios.LiveRepos;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.services.secretsmanager.SecretsManagerClient;

/**
 * The scheduled drift task as the ECS container wires it from its environment (the GitHub token
 * from Secrets Manager in moto, GitHub a WireMock stand-in), on {@link LiveRepos#drifted}: it
 * clones the trunk's head, plans every unit with real terraform, and reports the one drifted unit
 * on one GitHub issue, which the next run updates instead of opening another. With reconcile on, it
 * queues the drifted unit's deployment behind the merge holding the lock, and the moto flow plans,
 * votes on and applies it once the merge is done.
 */
@Timeout(value = 20, unit = TimeUnit.MINUTES)
@Tag("moto")
@Tag("terraform")
@ExtendWith(SandboxUserLock.class)
class DriftScheduleTest {
  @RegisterExtension static final MotoServer MOTO = new MotoServer();

  @RegisterExtension
  static final WireMockExtension GITHUB =
      WireMockExtension.newInstance().options(wireMockConfig().dynamicPort()).build();

  private static final String ISSUES = "/repos/acme/live/issues";
  private static final String OPEN_ISSUES =
      ISSUES + "?state=open&labels=livegate-drift&per_page=100";
  private static final String VOTER = "ops@example.com";

  @TempDir Path dir;

  /** The task's terraform runs as the image's user, which must reach the units' local states. */
  @BeforeEach
  void reachableByTheImagesUser() throws IOException {
    Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-xr-x"));
  }

  @Test
  void aScheduledRunReportsTheDriftedUnitOnOneIssueThatTheNextRunUpdates() {
    LiveRepo repo = LiveRepos.drifted(dir.resolve("live"));
    MOTO.reset();
    Map<String, String> environment = MOTO.wiringEnvironment();
    environment.put(RuntimeContract.Tasks.REPO_URL, repo.root().toString());
    environment.put(RuntimeContract.Tasks.ACCOUNTS, repo.accounts());
    environment.put(RuntimeContract.Engine.RUNNER, "terraform");
    withGitHub(environment);
    GITHUB.stubFor(patch(urlEqualTo(ISSUES + "/5")).willReturn(aResponse().withBody("{}")));

    StringWriter first = new StringWriter();
    int firstExit = drift(environment, first);

    assertThat(firstExit).as(first.toString()).isEqualTo(2);
    assertThat(first.toString())
        .contains("2 units planned, 1 drifted, 0 could not be planned")
        .contains("drift issue on acme/live: created")
        .contains("drift mail to " + VOTER);
    GITHUB.verify(
        1,
        postRequestedFor(urlEqualTo(ISSUES))
            .withHeader("Authorization", equalTo("Bearer ghs_drift"))
            .withRequestBody(
                matchingJsonPath(
                    "$.body", containing("| `app/a` | apps | terraform_data.this: update |")))
            .withRequestBody(matchingJsonPath("$.body", containing("1 drifted"))));

    GITHUB.stubFor(
        get(urlEqualTo(OPEN_ISSUES))
            .willReturn(
                aResponse()
                    .withBody(
                        "[{\"number\":5,\"body\":\"" + ReportDrift.MARKER + "\\nfirst run\"}]")));
    StringWriter second = new StringWriter();
    int secondExit = drift(environment, second);

    assertThat(secondExit).as(second.toString()).isEqualTo(2);
    assertThat(second.toString()).contains("drift issue on acme/live: updated");
    GITHUB.verify(1, postRequestedFor(urlEqualTo(ISSUES)));
    GITHUB.verify(
        1,
        patchRequestedFor(urlEqualTo(ISSUES + "/5"))
            .withRequestBody(matchingJsonPath("$.body", containing("app/a"))));
  }

  @Test
  void withReconcileTheDriftedUnitIsDeployedBehindTheMergeHoldingTheLockAfterItsVote()
      throws IOException {
    LiveRepo repo = LiveRepos.drifted(dir.resolve("live"));
    Path states = LiveRepos.states(repo.root());
    assertThat(input(states.resolve("a.tfstate"))).as("a, changed out of band").isEqualTo("large");
    String stateOfB = Files.readString(states.resolve("b.tfstate"));
    MOTO.reset();
    try (MotoDeployment flow =
        new MotoDeployment(
            MOTO, dir.resolve("flow"), repo, MotoDeployment.Settings.of(Duration.ofMinutes(10)))) {
      // The merge of base..head (b's comment) holds the lock while b waits for its vote.
      flow.deploy();
      Execution mergedB = flow.execution("app/b");
      flow.driveUntil(execution -> null, () -> !flow.ballots(mergedB.id()).isEmpty());
      Map<String, String> environment = flow.taskEnvironment();
      withGitHub(environment);
      environment.put(RuntimeContract.Tasks.DRIFT_RECONCILE, "true");
      GITHUB.stubFor(
          post(urlPathMatching("/repos/acme/live/statuses/[0-9a-f]+"))
              .willReturn(aResponse().withStatus(201).withBody("{}")));

      StringWriter log = new StringWriter();
      int exit = drift(environment, log);
      flow.driveUntil(execution -> null, () -> true);

      assertThat(exit).as(log.toString()).isEqualTo(2);
      assertThat(log.toString())
          .contains("2 units planned, 1 drifted, 0 could not be planned")
          .contains("drift issue on acme/live: created")
          .contains("drift reconcile: deployment ");
      List<Deployment> queued = flow.deployments();
      assertThat(queued).hasSize(2);
      Deployment reconcile = queued.get(1);
      assertThat(reconcile.pullRequest().driftRun()).startsWith("drift-");
      assertThat(reconcile.pullRequest().mergeCommit()).isEqualTo(repo.head());
      assertThat(reconcile.status()).as("behind the merge").isEqualTo(DeploymentStatus.QUEUED);
      assertThat(flow.deploymentStatus()).isEqualTo(DeploymentStatus.RUNNING);
      assertThat(executions(flow, reconcile))
          .extracting(Execution::unit, Execution::status)
          .containsExactly(tuple("app/a", ExecutionStatus.WAITING));

      assertThat(
              flow.castVote(flow.ballots(mergedB.id()).get(VOTER).get(Vote.Choice.APPROVE))
                  .path("statusCode")
                  .asInt())
          .isEqualTo(200);
      flow.driveUntil(
          execution -> Vote.Choice.APPROVE,
          () -> status(flow, reconcile).isFinished() && flow.runningFlows() == 0);

      assertThat(flow.deploymentStatus()).isEqualTo(DeploymentStatus.SUCCEEDED);
      assertThat(status(flow, reconcile)).isEqualTo(DeploymentStatus.SUCCEEDED);
      Deployment merge = flow.deployments().get(0);
      Deployment reconciled = flow.deployments().get(1);
      assertThat(reconciled.startedAt()).isAfterOrEqualTo(merge.finishedAt());
      Execution reconciledA = executions(flow, reconciled).get(0);
      assertThat(reconciledA.unit()).isEqualTo("app/a");
      assertThat(reconciledA.status()).isEqualTo(ExecutionStatus.SUCCEEDED);
      assertThat(reconciledA.decision()).isEqualTo("approved");
      assertThat(flow.flowOutcomes()).containsEntry(reconciledA.name(), "succeeded");
      assertThat(flow.mailSubjects())
          .containsExactly(
              "[livegate] approve app/b (apps)?",
              "[livegate] approve (drift reconcile) app/a (apps)?");
      // The head's livegate/deploy follows the reconcile from the merge's end to its own.
      String mergeName = "deployment " + merge.id();
      String reconcileName = "deployment " + reconciled.id();
      GITHUB.verify(
          1,
          postRequestedFor(urlEqualTo("/repos/acme/live/statuses/" + repo.head()))
              .withRequestBody(matchingJsonPath("$.context", equalTo("livegate/deploy")))
              .withRequestBody(matchingJsonPath("$.state", equalTo("pending")))
              .withRequestBody(
                  matchingJsonPath(
                      "$.description", equalTo(reconcileName + " (drift reconcile): 1 units"))));
      assertThat(flow.commitStatuses().of("livegate/deploy"))
          .extracting(
              RecordingStatuses.Status::sha,
              RecordingStatuses.Status::state,
              RecordingStatuses.Status::description)
          .containsExactly(
              tuple(repo.head(), CommitStatusPublisher.State.PENDING, mergeName + ": 1 units"),
              tuple(repo.head(), CommitStatusPublisher.State.SUCCESS, mergeName + " succeeded"),
              tuple(
                  repo.head(), CommitStatusPublisher.State.SUCCESS, reconcileName + " succeeded"));
    }
    assertThat(input(states.resolve("a.tfstate")))
        .as("a, back to the code's value")
        .isEqualTo("small");
    assertThat(Files.readString(states.resolve("b.tfstate")))
        .as("b, whose merge applied no change")
        .isEqualTo(stateOfB);
    GITHUB.verify(1, postRequestedFor(urlEqualTo(ISSUES)));
    GITHUB.verify(
        1,
        postRequestedFor(urlEqualTo(ISSUES))
            .withRequestBody(matchingJsonPath("$.body", containing("app/a"))));
  }

  /**
   * The drift task's GitHub: the token in Secrets Manager, the API this test's WireMock, with no
   * drift issue open yet.
   */
  private void withGitHub(Map<String, String> environment) {
    try (SecretsManagerClient secrets = MOTO.client(SecretsManagerClient.builder())) {
      environment.put(
          RuntimeContract.GitHub.TOKEN_SECRET,
          secrets.createSecret(r -> r.name("livegate/github").secretString("ghs_drift")).arn());
    }
    environment.put(RuntimeContract.GitHub.API_URL, GITHUB.baseUrl());
    environment.put(RuntimeContract.Tasks.WORKSPACE, dir.resolve("workspace").toString());
    GITHUB.stubFor(get(urlEqualTo(OPEN_ISSUES)).willReturn(aResponse().withBody("[]")));
    GITHUB.stubFor(post(ISSUES).willReturn(aResponse().withStatus(201).withBody("{\"number\":5}")));
  }

  private static int drift(Map<String, String> environment, StringWriter log) {
    PrintWriter out = new PrintWriter(log, true);
    return TaskWiring.fromEnvironment(environment, out).drift().run("acme/live", "main");
  }

  private static List<Execution> executions(MotoDeployment flow, Deployment deployment) {
    return flow.metadb.executions().list(deployment.id());
  }

  private static DeploymentStatus status(MotoDeployment flow, Deployment deployment) {
    return flow.metadb.deployments().find(deployment.id()).orElseThrow().status();
  }

  /** The input of the unit's terraform_data resource in its state file. */
  private static String input(Path state) throws IOException {
    JsonNode resource = MotoDeployment.json(Files.readString(state)).path("resources").get(0);
    return resource
        .path("instances")
        .get(0)
        .path("attributes")
        .path("input")
        .path("value")
        .asText();
  }
}
