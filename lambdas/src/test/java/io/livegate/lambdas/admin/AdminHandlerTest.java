package io.livegate.lambdas.admin;

import static org.assertj.core.api.Assertions.assertThat;

import com.amazonaws.services.lambda.runtime.Context;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.TextNode;
import io.livegate.core.admin.Console;
import io.livegate.core.admin.RunAdminCommand;
import io.livegate.core.deploy.DeploymentStatus;
import io.livegate.core.deploy.MergedPullRequest;
import io.livegate.core.deploy.OperatorCommands;
import io.livegate.core.pr.LockScope;
import io.livegate.core.runner.ExecutionLogs;
import io.livegate.lambdas.Handlers;
import io.livegate.lambdas.LoggingContext;
import io.livegate.sql.testing.InMemoryFlowLauncher;
import io.livegate.sql.testing.InMemoryMergeLock;
import io.livegate.sql.testing.RecordingScanLauncher;
import io.livegate.sql.testing.TestEngine;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Optional;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The admin Lambda's requests and answers on the real use case over an embedded metadb: each bad
 * request is answered with an error naming what is wrong, and each command answers the lines {@code
 * livegate admin} prints. The moto suite (tests module) runs the same handler as the CDK wires it,
 * against SSM and ECS.
 */
class AdminHandlerTest {
  private final TestEngine engine = TestEngine.fresh();
  private final RecordingScanLauncher scans = new RecordingScanLauncher();
  private final RunAdminCommand admin =
      engine
          .engine(
              new InMemoryFlowLauncher(),
              scans,
              new InMemoryMergeLock(),
              (repository, sha, context, state, description, targetUrl) -> {},
              LockScope.REPO,
              OperatorCommands.AWS)
          .admin();
  // status reads the metadb and S3 as the moto suite's StatusAwsTest shows; here only its requests
  private final AdminHandler handler =
      new AdminHandler(
          () -> admin,
          () -> {
            throw new AssertionError("no request here reads the status");
          },
          () ->
              new Console(
                  new Console.Source(
                      engine.deployments,
                      engine.executions,
                      engine.votes,
                      new NoLogs(),
                      execution -> AdminHandler.NO_PLAN_TEXT,
                      AdminHandler.PLACE)));

  /** The console's logs: none kept (S3's are read in the moto suite's StatusAwsTest). */
  private static final class NoLogs implements ExecutionLogs {
    @Override
    public void append(
        String executionName, String command, int exitCode, String output, Instant at) {
      throw new AssertionError("the console only reads");
    }

    @Override
    public Optional<String> read(String executionName) {
      return Optional.empty();
    }

    @Override
    public String location(String executionName) {
      return "nowhere";
    }
  }

  private JsonNode invoke(String request) throws IOException {
    return invoke(request, null);
  }

  private JsonNode invoke(String request, Context context) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    handler.handleRequest(
        new ByteArrayInputStream(request.getBytes(StandardCharsets.UTF_8)), out, context);
    return Handlers.JSON.readTree(out.toByteArray());
  }

  /** A merge of pull request {@code number} that took the lock and whose scan never reported. */
  private long mergeWhoseScanNeverReported(int number) {
    String sha = Integer.toString(number).repeat(40);
    long id =
        engine
            .deployments
            .enqueue(
                MergedPullRequest.withExactBase("acme/live", number, "main", "pr", sha, sha),
                Instant.now())
            .deployment()
            .id();
    engine.startNext.startNext("acme/live");
    return id;
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          not JSON                | the admin request is not JSON
          []                      | the admin request is not a JSON object
          {}                      | the request names no command: expected "command", one of [queue, retry-scan, abort, release-lock, resolve-rollback, status, page]
          {"command": 3}          | the request names no command
          {"command": "reboot"}   | unknown command "reboot": expected one of [queue, retry-scan, abort, release-lock, resolve-rollback, status, page]
          {"command": "abort"}    | deployment must be an id (a whole number), not null
          {"command": "abort", "deployment": "7"}   | deployment must be an id (a whole number), not "7"
          {"command": "abort", "deployment": 0}     | deployment must be a positive id, not 0
          {"command": "abort", "deployment": 7, "reason": ""}  | reason must be a text, not empty
          {"command": "abort", "deployment": 7, "force": true} | abort takes no field "force"
          {"command": "queue", "deployment": 7}     | queue takes no field "deployment"
          {"command": "release-lock", "repository": "acme"}    | repository must be OWNER/NAME, not acme
          {"command": "resolve-rollback", "execution": 1.5}    | execution must be an id (a whole number), not 1.5
          {"command": "status", "json": "yes"}      | json must be true or false, not "yes"
          {"command": "status", "log": 7}           | log must be a text (a unit's path), not 7
          {"command": "status", "log": "app/a"}     | a unit's log is read from one deployment: give its id with the unit
          {"command": "status", "deployment": 1, "json": true, "log": "app/a"} | a log is plain text: ask for it without JSON
          {"command": "status", "deployment": 1, "log": " "} | the unit whose log to show must be a path of 1 to 500 characters
          {"command": "status", "force": true}      | status takes no field "force"
          {"command": "page", "fragment": false}    | path must be a console path ("/", "/deployments/12", at most 200 printable characters), not
          {"command": "page", "path": 3, "fragment": false}           | path must be a console path
          {"command": "page", "path": "deployments", "fragment": false} | path must be a console path
          {"command": "page", "path": "/a b", "fragment": false}        | path must be a console path
          {"command": "page", "path": "/", "fragment": "no"}          | fragment must be true or false, not "no"
          {"command": "page", "path": "/"}                            | fragment must be true or false
          {"command": "page", "path": "/", "fragment": false, "as": 1} | page takes no field "as"
          """)
  void aMalformedRequestIsAnsweredWithAnErrorNamingWhatIsWrong(String request, String error)
      throws IOException {
    JsonNode answer = invoke(request);

    assertThat(answer.fieldNames()).toIterable().containsExactly("error");
    assertThat(answer.get("error").asText()).startsWith(error);
  }

  @Test
  void aPathOfMoreThan200CharactersIsRefused() throws IOException {
    JsonNode answer =
        invoke(
            "{\"command\": \"page\", \"path\": \"/" + "a".repeat(200) + "\", \"fragment\": false}");

    assertThat(answer.get("error").asText()).startsWith("path must be a console path");
  }

  @Test
  void aPageRequestIsAnsweredWithTheConsolePageTheMetadbShows() throws IOException {
    long id = mergeWhoseScanNeverReported(4);

    JsonNode list = invoke("{\"command\": \"page\", \"path\": \"/\", \"fragment\": false}");
    JsonNode one =
        invoke(
            "{\"command\": \"page\", \"path\": \"/deployments/" + id + "\", \"fragment\": true}");
    JsonNode missing =
        invoke("{\"command\": \"page\", \"path\": \"/deployments/999\", \"fragment\": true}");

    assertThat(list.fieldNames())
        .toIterable()
        .containsExactly("status", "contentType", "body", "live");
    assertThat(list.get("status").asInt()).isEqualTo(200);
    assertThat(list.get("contentType").asText()).isEqualTo("text/html; charset=utf-8");
    assertThat(list.get("body").asText())
        .startsWith("<!doctype html>")
        .contains("href=\"/deployments/" + id + "\">Deployment " + id + "</a>");
    assertThat(list.get("live").asBoolean()).isTrue();
    assertThat(one.get("body").asText())
        .startsWith("<p><a href=\"/\">Deployments</a></p><h1>Deployment " + id + " ")
        .contains("pull request #4");
    assertThat(missing.get("status").asInt()).isEqualTo(404);
    assertThat(missing.get("body").asText()).contains("There is no deployment 999");
  }

  /**
   * CloudWatch keeps what was asked and how it ended: a page's body (or a status's lines, which can
   * hold a whole execution log) is the metadb's and S3's to keep, not the function's log.
   */
  @Test
  void eachRequestIsLoggedAsWhatWasAskedAndHowItEndedNeverAsThePageItRendered() throws IOException {
    long id = mergeWhoseScanNeverReported(5);
    LoggingContext context = new LoggingContext();

    String body =
        invoke(
                "{\"command\": \"page\", \"path\": \"/deployments/"
                    + id
                    + "\", \"fragment\": false}",
                context)
            .get("body")
            .asText();
    invoke("{\"command\": \"abort\", \"deployment\": 99}", context);
    invoke("{\"command\": \"reboot\"}", context);

    assertThat(body).contains("pull request #5");
    assertThat(context.logged).hasSize(3);
    // neither as the page says it nor as the answer's JSON does
    String inJson = TextNode.valueOf(body).toString();
    assertThat(String.join("", context.logged))
        .doesNotContain(body)
        .doesNotContain(inJson.substring(1, inJson.length() - 1))
        .doesNotContain("pull request #5")
        .doesNotContain("<main");
    assertThat(context.logged.get(0))
        .matches(
            Pattern.quote(
                    "admin {\"command\":\"page\",\"path\":\"/deployments/"
                        + id
                        + "\",\"fragment\":false}: 200, "
                        + body.length()
                        + " characters in ")
                + "\\d+ ms\n");
    assertThat(context.logged.get(1))
        .matches(
            Pattern.quote(
                    "admin {\"command\":\"abort\",\"deployment\":99}:"
                        + " [\"there is no deployment 99\"], not done in ")
                + "\\d+ ms\n");
    assertThat(context.logged.get(2))
        .startsWith(
            "admin {\"command\":\"reboot\"}: refused: unknown command \"reboot\": expected one of")
        .endsWith(" ms\n");
  }

  @Test
  void anUnknownDeploymentOrExecutionIsAnAnswerThatDidNothing() throws IOException {
    for (String request :
        new String[] {
          "{\"command\": \"abort\", \"deployment\": 99}",
          "{\"command\": \"retry-scan\", \"deployment\": 99}"
        }) {
      JsonNode answer = invoke(request);
      assertThat(answer.toString())
          .isEqualTo("{\"lines\":[\"there is no deployment 99\"],\"done\":false}");
    }
    assertThat(invoke("{\"command\": \"resolve-rollback\", \"execution\": 99}").toString())
        .isEqualTo("{\"lines\":[\"there is no execution 99\"],\"done\":false}");
  }

  @Test
  void retryScanLaunchesTheScanOfAMergeWhoseScanNeverReportedAndNothingForAnother()
      throws IOException {
    long stuck = mergeWhoseScanNeverReported(1);
    long queued = mergeWhoseScanNeverReported(2);

    JsonNode queue = invoke("{\"command\": \"queue\"}");
    assertThat(queue.get("lines"))
        .extracting(JsonNode::asText)
        .containsExactly(
            "acme/live: deployment "
                + stuck
                + " of pull request #1 holds the lock (running): its scan has not stored its"
                + " units yet; if no scan runs, run livegate admin --aws retry-scan "
                + stuck,
            "  waiting: deployment " + queued + " of pull request #2 (merge 222222222222)");

    JsonNode retried = invoke("{\"command\": \"retry-scan\", \"deployment\": " + stuck + "}");
    assertThat(retried.toString())
        .isEqualTo(
            "{\"lines\":[\"launched the scan of deployment " + stuck + " again\"],\"done\":true}");
    assertThat(scans.launched()).containsExactly(stuck);

    JsonNode behind = invoke("{\"command\": \"retry-scan\", \"deployment\": " + queued + "}");
    assertThat(behind.get("lines").get(0).asText())
        .isEqualTo("deployment " + queued + " is queued; it is scanned when it takes the lock");
    assertThat(behind.get("done").asBoolean()).isFalse();
    assertThat(scans.launched()).containsExactly(stuck);
  }

  @Test
  void aDuplicateAbortIsRefusedAndLeavesTheLockWithTheNextMerge() throws IOException {
    long stuck = mergeWhoseScanNeverReported(1);
    long next = mergeWhoseScanNeverReported(2);
    String abort =
        "{\"command\": \"abort\", \"deployment\": " + stuck + ", \"reason\": \"scan hangs\"}";

    JsonNode first = invoke(abort);
    JsonNode second = invoke(abort);

    assertThat(first.toString())
        .isEqualTo(
            "{\"lines\":[\"deployment "
                + stuck
                + " failed: aborted by an operator: scan hangs; started deployment "
                + next
                + "\"],\"done\":true}");
    assertThat(second.toString())
        .isEqualTo(
            "{\"lines\":[\"deployment "
                + stuck
                + " is failed; only a running or rolling-back deployment can be aborted\"],"
                + "\"done\":false}");
    assertThat(engine.deployments.find(stuck).orElseThrow().status())
        .isEqualTo(DeploymentStatus.FAILED);
    assertThat(engine.deployments.lockHolder("acme/live").orElseThrow().id()).isEqualTo(next);
  }
}
