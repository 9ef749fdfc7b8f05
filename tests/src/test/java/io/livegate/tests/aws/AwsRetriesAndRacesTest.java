package io.livegate.tests.aws;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.livegate.core.deploy.DeploymentStatus;
import io.livegate.core.deploy.Execution;
import io.livegate.core.deploy.ExecutionStatus;
import io.livegate.core.vote.Decision;
import io.livegate.core.vote.Vote;
import io.livegate.tests.moto.MotoServer;
import io.livegate.tests.scenarios.LiveRepo;
import io.livegate.tests.scenarios.LiveRepos;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
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
import software.amazon.awssdk.services.sfn.model.ExecutionListItem;
import software.amazon.awssdk.services.sfn.model.HistoryEvent;
import software.amazon.awssdk.services.sfn.model.HistoryEventType;

/**
 * What arrives twice or at once on AWS, against moto running the real ASL: a retried
 * StartExecution, a repeated "deployment created", and voters voting at the same moment.
 */
@Timeout(value = 20, unit = TimeUnit.MINUTES)
@Tag("moto")
@Tag("terraform")
class AwsRetriesAndRacesTest {
  @RegisterExtension static final MotoServer MOTO = new MotoServer();

  private static final List<String> APPROVERS =
      List.of("ann@example.com", "ben@example.com", "cat@example.com");
  private static final List<String> REJECTERS =
      List.of("dan@example.com", "eve@example.com", "fay@example.com");

  /** Six voters; three approvals or three rejections decide, whichever come first. */
  private static final String SIX_VOTERS =
      """
      account "apps" {
        path           = "app"
        voters         = ["ann@example.com", "ben@example.com", "cat@example.com",
                          "dan@example.com", "eve@example.com", "fay@example.com"]
        min_approvals  = 3
        min_rejections = 3
      }
      """;

  @TempDir Path dir;

  private final List<MotoDeployment> opened = new ArrayList<>();

  @BeforeEach
  void resetMoto() {
    MOTO.reset();
  }

  @AfterEach
  void closeClients() {
    opened.forEach(MotoDeployment::close);
  }

  private MotoDeployment flow(Function<Path, LiveRepo> repo) {
    MotoDeployment flow =
        new MotoDeployment(
            MOTO,
            dir,
            repo.apply(dir.resolve("live")),
            MotoDeployment.Settings.of(Duration.ofMinutes(10)));
    opened.add(flow);
    return flow;
  }

  @Test
  void aPlanContainerKilledBeforeItReportedFailsItsFlowAndTheDeploymentHandsTheLockOn() {
    MotoDeployment flow = flow(live -> LiveRepos.single(live, LiveRepos.APPS_ACCOUNTS));
    flow.killPlans = execution -> true;
    flow.deploy();
    assertThat(
            flow.ssm.getParameter(r -> r.name(MotoDeployment.LOCK_PARAMETER)).parameter().value())
        .contains(flow.repo.head());

    flow.drive(execution -> Vote.Choice.APPROVE);

    assertThat(flow.executions())
        .extracting(Execution::status)
        .containsExactly(ExecutionStatus.FAILED);
    assertThat(flow.deploymentStatus()).isEqualTo(DeploymentStatus.FAILED);
    // The lock is free: the next merge takes it at once instead of after the two-hour timeout.
    org.assertj.core.api.Assertions.assertThatThrownBy(
            () -> flow.ssm.getParameter(r -> r.name(MotoDeployment.LOCK_PARAMETER)))
        .isInstanceOf(software.amazon.awssdk.services.ssm.model.ParameterNotFoundException.class);
  }

  @Test
  void aRetriedStartExecutionStartsNoSecondFlowWhileTheFirstRunsNorAfterItEnded() {
    MotoDeployment flow = flow(live -> LiveRepos.single(live, LiveRepos.APPS_ACCOUNTS));
    flow.deploy();
    Execution a = flow.execution("app/a");
    List<ExecutionListItem> first = flow.listExecutions();
    assertThat(first).singleElement().satisfies(e -> assertThat(e.name()).isEqualTo(a.name()));

    // While it runs, Step Functions answers the same execution for the same name and input.
    flow.flows.start(a);
    flow.flows.start(a);
    String sameArn =
        flow.sfn
            .startExecution(
                r ->
                    r.stateMachineArn(flow.stateMachineArn)
                        .name(a.name())
                        .input(
                            flow.sfn
                                .describeExecution(e -> e.executionArn(first.get(0).executionArn()))
                                .input()))
            .executionArn();

    assertThat(sameArn).isEqualTo(first.get(0).executionArn());
    assertThat(flow.listExecutions()).isEqualTo(first);

    flow.drive(e -> Vote.Choice.APPROVE);
    List<ExecutionListItem> ended = flow.listExecutions();
    Execution succeeded = flow.execution("app/a");

    // After it ended, the same start is ExecutionAlreadyExists, which the launcher counts as
    // started.
    flow.flows.start(a);

    assertThat(flow.listExecutions()).isEqualTo(ended).singleElement();
    assertThat(ended.get(0).statusAsString()).isEqualTo("SUCCEEDED");
    assertThat(flow.execution("app/a")).isEqualTo(succeeded);
    assertThat(succeeded.status()).isEqualTo(ExecutionStatus.SUCCEEDED);
    assertThat(flow.deploymentStatus()).isEqualTo(DeploymentStatus.SUCCEEDED);
  }

  @Test
  void theCreatedEventDeliveredTwiceStartsEachFlowOnce() {
    MotoDeployment flow = flow(LiveRepos::apps);
    flow.deploy();
    List<ExecutionListItem> started = flow.listExecutions();

    String again = flow.deliverCreated();

    assertThat(again).isEqualTo("deployment " + flow.deploymentId + ": started 2 flows");
    assertThat(flow.listExecutions()).isEqualTo(started);
    assertThat(started)
        .extracting(ExecutionListItem::name)
        .containsExactlyInAnyOrder(flow.name("app/a"), flow.name("app/d"));

    flow.drive(e -> Vote.Choice.APPROVE);

    assertThat(flow.sfnStatuses())
        .hasSize(4)
        .allSatisfy((name, status) -> assertThat(status).isEqualTo("SUCCEEDED"));
    assertThat(flow.statuses())
        .allSatisfy((unit, s) -> assertThat(s).isEqualTo(ExecutionStatus.SUCCEEDED));
    assertThat(flow.deploymentStatus()).isEqualTo(DeploymentStatus.SUCCEEDED);
  }

  @Test
  void aCreatedEventBetweenAFlowsEndAndItsStatusChangeStartsNothingAndFailsNothing() {
    MotoDeployment flow = flow(live -> LiveRepos.single(live, LiveRepos.APPS_ACCOUNTS));
    flow.holdEnds = true;
    flow.deploy();
    // The flow ends in Step Functions; EventBridge has not told the trigger yet.
    flow.driveUntil(e -> Vote.Choice.APPROVE, () -> flow.runningFlows() == 0);
    assertThat(flow.execution("app/a").status()).isEqualTo(ExecutionStatus.RUNNING);
    List<ExecutionListItem> ended = flow.listExecutions();

    // The trigger starts the running execution's flow again: ExecutionAlreadyExists.
    String again = flow.deliverCreated();

    assertThat(again).isEqualTo("deployment " + flow.deploymentId + ": started 1 flows");
    assertThat(flow.listExecutions()).isEqualTo(ended).singleElement();

    flow.holdEnds = false;
    flow.drive(e -> Vote.Choice.APPROVE);

    assertThat(flow.execution("app/a").status()).isEqualTo(ExecutionStatus.SUCCEEDED);
    assertThat(flow.deploymentStatus()).isEqualTo(DeploymentStatus.SUCCEEDED);
    assertThat(flow.listExecutions()).hasSize(1);
  }

  @Test
  void votersVotingAtTheSameMomentDecideOnceAndTheDecisionReachesTheFlowOnce() throws Exception {
    MotoDeployment flow = flow(live -> LiveRepos.single(live, SIX_VOTERS));
    flow.deploy();
    flow.driveUntil(e -> null, () -> flow.ballots(flow.execution("app/a").id()).size() == 6);
    Execution a = flow.execution("app/a");
    Map<String, Map<Vote.Choice, String>> ballots = flow.ballots(a.id());

    List<JsonNode> answers = race(flow, ballots);

    List<JsonNode> recorded =
        answers.stream().filter(answer -> answer.path("statusCode").asInt() == 200).toList();
    List<JsonNode> refused =
        answers.stream().filter(answer -> answer.path("statusCode").asInt() == 409).toList();
    assertThat(recorded.size() + refused.size()).as(answers.toString()).isEqualTo(6);
    assertThat(recorded)
        .filteredOn(answer -> answer.path("body").asText().contains("It decided the vote"))
        .hasSize(1);
    assertThat(refused)
        .allSatisfy(answer -> assertThat(answer.path("body").asText()).contains("already decided"));
    Execution decided = flow.execution("app/a");
    assertThat(decided.decision()).isIn("approved", "rejected");
    Decision decision = Decision.fromId(decided.decision());
    Vote.Choice deciding = decision == Decision.APPROVED ? Vote.Choice.APPROVE : Vote.Choice.REJECT;
    List<Vote> votes = flow.metadb.votes().votes(a.id());
    assertThat(votes).hasSize(recorded.size());
    assertThat(votes).filteredOn(vote -> vote.choice() == deciding).hasSize(3);
    assertThat(votes).filteredOn(vote -> vote.choice() != deciding).hasSizeLessThan(3);
    assertThat(flow.decisions())
        .singleElement()
        .satisfies(
            sent -> {
              assertThat(sent.decision()).isEqualTo(decision.flowDecision());
              assertThat(sent.accepted()).isTrue();
            });

    // Late votes: another voter's first vote, and a counted voter changing their mind.
    String lateVoter =
        (deciding == Vote.Choice.APPROVE ? REJECTERS : APPROVERS)
            .stream()
                .filter(voter -> votes.stream().noneMatch(vote -> vote.voter().equals(voter)))
                .findFirst()
                .orElseThrow();
    String counted =
        votes.stream().filter(vote -> vote.choice() == deciding).findFirst().orElseThrow().voter();
    Vote.Choice other = deciding == Vote.Choice.APPROVE ? Vote.Choice.REJECT : Vote.Choice.APPROVE;
    for (String token :
        List.of(ballots.get(lateVoter).get(other), ballots.get(counted).get(other))) {
      JsonNode page = flow.confirmPage(token);
      assertThat(page.path("statusCode").asInt()).isEqualTo(409);
      JsonNode late = flow.castVote(token);
      assertThat(late.path("statusCode").asInt()).isEqualTo(409);
      assertThat(late.path("body").asText())
          .contains("already decided: <b>" + decision.id() + "</b>", "Your vote was not counted");
    }
    assertThat(flow.metadb.votes().votes(a.id())).isEqualTo(votes);
    assertThat(flow.decisions()).hasSize(1);

    flow.drive(e -> null);

    ExecutionStatus expected =
        decision == Decision.APPROVED ? ExecutionStatus.SUCCEEDED : ExecutionStatus.REJECTED;
    assertThat(flow.execution("app/a").status()).isEqualTo(expected);
    assertThat(flow.flowOutcomes()).containsEntry(a.name(), expected.id());
    assertThat(flow.deploymentStatus())
        .isEqualTo(
            decision == Decision.APPROVED ? DeploymentStatus.SUCCEEDED : DeploymentStatus.REJECTED);
    List<HistoryEvent> answered =
        flow
            .sfn
            .getExecutionHistory(
                r -> r.executionArn(flow.listExecutions().get(0).executionArn()).maxResults(1000))
            .events()
            .stream()
            .filter(event -> event.type() == HistoryEventType.TASK_SUCCEEDED)
            .filter(event -> event.taskSucceededEventDetails().resourceType().equals("sns"))
            .toList();
    assertThat(answered)
        .singleElement()
        .satisfies(
            event ->
                assertThat(event.taskSucceededEventDetails().output())
                    .contains("\"" + decision.flowDecision().id() + "\""));
  }

  /** Every voter posts their vote at the same moment: approvers approve, rejecters reject. */
  private static List<JsonNode> race(
      MotoDeployment flow, Map<String, Map<Vote.Choice, String>> ballots) throws Exception {
    List<String> tokens = new ArrayList<>();
    APPROVERS.forEach(voter -> tokens.add(ballots.get(voter).get(Vote.Choice.APPROVE)));
    REJECTERS.forEach(voter -> tokens.add(ballots.get(voter).get(Vote.Choice.REJECT)));
    CyclicBarrier together = new CyclicBarrier(tokens.size());
    ExecutorService voters = Executors.newFixedThreadPool(tokens.size());
    try {
      List<CompletableFuture<JsonNode>> posts =
          tokens.stream()
              .map(
                  token ->
                      CompletableFuture.supplyAsync(
                          () -> {
                            assertThat(flow.confirmPage(token).path("statusCode").asInt())
                                .isEqualTo(200);
                            await(together);
                            return flow.castVote(token);
                          },
                          voters))
              .toList();
      return posts.stream()
          .map(post -> post.orTimeout(30, TimeUnit.SECONDS).join())
          .collect(Collectors.toList());
    } finally {
      voters.shutdownNow();
    }
  }

  private static void await(CyclicBarrier barrier) {
    try {
      barrier.await(30, TimeUnit.SECONDS);
    } catch (Exception e) {
      throw new IllegalStateException("the voters did not meet", e);
    }
  }
}
