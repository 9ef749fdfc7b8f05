package io.livegate.lambdas.approval;

import static io.livegate.sql.testing.SyntheticDeployments.command;
import static io.livegate.sql.testing.SyntheticDeployments.unit;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.livegate.core.LivegateException;
import io.livegate.core.account.Accounts;
import io.livegate.core.deploy.Execution;
import io.livegate.core.deploy.PlanSummary;
import io.livegate.core.vote.Vote;
import io.livegate.core.vote.VoteDesk;
import io.livegate.core.vote.VoteLinks;
import io.livegate.lambdas.Handlers;
import io.livegate.sql.testing.RecordingFlowCallback;
import io.livegate.sql.testing.SyntheticDeployments;
import io.livegate.sql.testing.TestEngine;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The approval-response Lambda on Function URL requests (payload format 2.0), with the real vote
 * desk on an embedded metadb and a recording task-token callback in place of Step Functions.
 */
class ApprovalResponseHandlerTest {
  private static final String ALICE = "alice@example.com";
  private static final String BOB = "bob@example.com";
  private static final String CAROL = "carol@example.com";
  private static final String TASK_TOKEN = "AQCEAAAAKgAAAAMAAAAAAAAAAeXample-task-token";

  private final TestEngine engine = TestEngine.fresh();
  private final VoteLinks links =
      new VoteLinks("a vote-link key of thirty-two bytes or more".getBytes(StandardCharsets.UTF_8));
  private final RecordingFlowCallback callback = new RecordingFlowCallback();
  private final ApprovalResponseHandler handler =
      new ApprovalResponseHandler(
          () ->
              new ApprovalResponseHandler.Parts(
                  new VoteDesk(
                      links,
                      engine.castVote,
                      engine.votes,
                      engine.executions,
                      engine.deployments,
                      execution -> "Plan: 1 to add, 0 to change, 0 to destroy.",
                      execution -> Optional.empty(),
                      Clock.systemUTC()),
                  engine.executions,
                  callback));
  private final Execution dns = waitingForVotes();

  /** A running execution whose RequestApproval waits on {@link #TASK_TOKEN}. */
  private Execution waitingForVotes() {
    Accounts accounts = SyntheticDeployments.accounts(1, List.of(ALICE, BOB, CAROL), 2, 2);
    long id =
        engine
            .create
            .create(command(1, accounts, List.of(unit("account-0/dns", "account-0", 0, List.of()))))
            .deployment()
            .id();
    Execution execution = engine.release.release(id).get(0);
    engine.executions.recordPlan(
        execution.id(), "plans/dns.tfplan", "ab".repeat(32), new PlanSummary(1, 0, 0, List.of()));
    engine.executions.recordApprovalToken(execution.id(), TASK_TOKEN);
    return execution;
  }

  private String token(String voter, Vote.Choice choice) {
    return links.token(
        new VoteLinks.Ballot(dns.id(), voter, choice, Instant.now().plusSeconds(3600)));
  }

  private static String form(String token) {
    return VoteDesk.TOKEN_PARAMETER + "=" + URLEncoder.encode(token, StandardCharsets.UTF_8);
  }

  /** A Function URL request as Lambda delivers it in payload format 2.0. */
  private static ObjectNode request(String method, String path, String query, String body) {
    ObjectNode request = Handlers.JSON.createObjectNode();
    request.put("version", "2.0");
    request.put("routeKey", "$default");
    request.put("rawPath", path);
    request.put("rawQueryString", query);
    ObjectNode headers = request.putObject("headers");
    headers.put("host", "abcdefgh.lambda-url.eu-west-1.on.aws");
    headers.put("user-agent", "Mozilla/5.0");
    if (body != null) {
      headers.put("content-type", "application/x-www-form-urlencoded");
    }
    ObjectNode context = request.putObject("requestContext");
    context.put("accountId", "anonymous");
    context.put("apiId", "abcdefgh");
    context.put("domainName", "abcdefgh.lambda-url.eu-west-1.on.aws");
    ObjectNode http = context.putObject("http");
    http.put("method", method);
    http.put("path", path);
    http.put("protocol", "HTTP/1.1");
    http.put("sourceIp", "203.0.113.7");
    http.put("userAgent", "Mozilla/5.0");
    context.put("requestId", "c9e6b4a4-8f0e-4e5a-9d1b-1f2e3d4c5b6a");
    context.put("routeKey", "$default");
    context.put("stage", "$default");
    context.put("timeEpoch", 1_795_341_600_000L);
    if (body != null) {
      request.put("body", body);
    }
    request.put("isBase64Encoded", false);
    return request;
  }

  private static ObjectNode get(String query) {
    return request("GET", VoteDesk.PATH, query, null);
  }

  private static ObjectNode post(String body) {
    return request("POST", VoteDesk.PATH, "", body);
  }

  private static ObjectNode postBase64(String body) {
    ObjectNode request =
        post(Base64.getEncoder().encodeToString(body.getBytes(StandardCharsets.UTF_8)));
    request.put("isBase64Encoded", true);
    return request;
  }

  private static void assertPage(JsonNode response, int status, String... contains) {
    assertThat(response.get("statusCode").asInt()).as(response.toString()).isEqualTo(status);
    assertThat(response.path("headers").path("content-type").asText())
        .isEqualTo("text/html; charset=utf-8");
    assertThat(response.path("headers").path("cache-control").asText()).isEqualTo("no-store");
    assertThat(response.get("body").asText()).contains(contains);
  }

  private List<Vote> history() {
    return engine.votes.history(dns.id());
  }

  @Test
  void aGetShowsTheConfirmPageAndRecordsNothing() {
    String token = token(ALICE, Vote.Choice.APPROVE);

    JsonNode response = handler.handle(get(form(token)));

    assertPage(response, 200, "Approve account-0/dns?", "value=\"" + token + "\"");
    assertThat(history()).isEmpty();
    assertThat(callback.answers()).isEmpty();
  }

  @Test
  void aPostWithAFormBodyRecordsTheVote() {
    JsonNode response = handler.handle(post(form(token(ALICE, Vote.Choice.APPROVE))));

    assertPage(response, 200, "Your approve is recorded (1 approvals, 0 rejections).");
    assertThat(history()).extracting(Vote::voter).containsExactly(ALICE);
    assertThat(callback.answers()).isEmpty();
  }

  @Test
  void aPostWithABase64BodyRecordsTheVote() {
    JsonNode response = handler.handle(postBase64(form(token(ALICE, Vote.Choice.REJECT))));

    assertPage(response, 200, "Your reject is recorded (0 approvals, 1 rejections).");
    assertThat(history()).extracting(Vote::choice).containsExactly(Vote.Choice.REJECT);
  }

  @Test
  void theDecidingPostAnswersTheRecordedTaskTokenExactlyOnce() {
    handler.handle(post(form(token(ALICE, Vote.Choice.APPROVE))));
    String bobs = form(token(BOB, Vote.Choice.APPROVE));

    JsonNode deciding = handler.handle(post(bobs));
    JsonNode replayed = handler.handle(post(bobs));
    JsonNode late = handler.handle(postBase64(form(token(CAROL, Vote.Choice.REJECT))));

    assertPage(deciding, 200, "It decided the vote: <b>approved</b>.");
    assertPage(replayed, 409, "Already decided");
    assertPage(late, 409, "Already decided", "Your vote was not counted.");
    assertThat(callback.answers()).containsExactly("decide " + TASK_TOKEN + " approved");
  }

  @Test
  void aDecidingRejectionAnswersRejected() {
    handler.handle(post(form(token(ALICE, Vote.Choice.REJECT))));

    handler.handle(post(form(token(CAROL, Vote.Choice.REJECT))));

    assertThat(callback.answers()).containsExactly("decide " + TASK_TOKEN + " rejected");
  }

  @Test
  void anotherPathIsNotFoundAndAnotherMethodIsNotAllowed() {
    String body = form(token(ALICE, Vote.Choice.APPROVE));

    assertPage(handler.handle(request("POST", "/admin", "", body)), 404, "Not found");
    assertPage(handler.handle(request("GET", "/vote/", form("x"), null)), 404, "Not found");
    assertPage(handler.handle(request("PUT", VoteDesk.PATH, "", body)), 405, "Not allowed");
    assertPage(handler.handle(request("DELETE", VoteDesk.PATH, "", null)), 405, "Not allowed");
    assertThat(history()).isEmpty();
  }

  @Test
  void aBodyOverSixteenKibibytesIsRefused() {
    String body = form(token(ALICE, Vote.Choice.APPROVE)) + "&padding=" + "x".repeat(16 * 1024);

    assertPage(handler.handle(post(body)), 413, "Too large");
    assertPage(handler.handle(postBase64(body)), 413, "Too large");
    assertThat(history()).isEmpty();
  }

  @Test
  void malformedEscapesAndBodiesAreRefusedAndRecordNothing() {
    String token = token(ALICE, Vote.Choice.APPROVE);

    assertPage(handler.handle(post("t=%zz" + token)), 403, "Invalid link");
    assertPage(handler.handle(post("t=" + token + "%")), 403, "Invalid link");
    assertPage(handler.handle(get("t=%E0%A4%A")), 403, "Invalid link");
    assertPage(handler.handle(get("")), 403, "Invalid link");
    assertPage(handler.handle(post("")), 403, "Invalid link");
    ObjectNode notBase64 = post("t=***");
    notBase64.put("isBase64Encoded", true);
    assertPage(handler.handle(notBase64), 400, "Bad request");
    assertThat(history()).isEmpty();
  }

  @Test
  void aTokenRepeatedInTheFormCountsByItsFirstValue() {
    String body =
        form(token(ALICE, Vote.Choice.APPROVE)) + "&" + form(token(BOB, Vote.Choice.APPROVE));

    handler.handle(post(body));

    assertThat(history()).extracting(Vote::voter).containsExactly(ALICE);
  }

  @Test
  void aRequestThatIsNotJsonGetsABadRequestPage() throws IOException {
    for (String input : List.of("not json", "[]", "")) {
      ByteArrayOutputStream output = new ByteArrayOutputStream();

      handler.handleRequest(
          new ByteArrayInputStream(input.getBytes(StandardCharsets.UTF_8)), output, null);

      assertPage(Handlers.JSON.readTree(output.toByteArray()), 400, "Bad request");
    }
  }

  @Test
  void aFailureToWireIsAnsweredWithAnEscapedErrorPage() {
    ApprovalResponseHandler broken =
        new ApprovalResponseHandler(
            () -> {
              throw new LivegateException("cannot read the secret <vote-key>");
            });

    JsonNode response = broken.handle(get(form(token(ALICE, Vote.Choice.APPROVE))));

    assertPage(response, 500, "cannot read the secret &lt;vote-key&gt;", "No vote was recorded.");
    assertThat(history()).isEmpty();
  }
}
