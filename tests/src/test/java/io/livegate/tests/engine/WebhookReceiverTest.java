package io.livegate.tests.engine;

import static io.livegate.sql.testing.SyntheticDeployments.unit;
import static io.livegate.sql.testing.Webhooks.bytes;
import static io.livegate.sql.testing.Webhooks.merged;
import static io.livegate.sql.testing.Webhooks.opened;
import static io.livegate.sql.testing.Webhooks.payload;
import static io.livegate.sql.testing.Webhooks.sha;
import static io.livegate.sql.testing.Webhooks.signed;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.livegate.core.account.Accounts;
import io.livegate.core.deploy.CommitStatusPublisher.State;
import io.livegate.core.deploy.Deployment;
import io.livegate.core.deploy.DeploymentStatus;
import io.livegate.core.deploy.Execution;
import io.livegate.core.deploy.ExecutionStatus;
import io.livegate.core.pr.LockScope;
import io.livegate.core.pr.MergeGate;
import io.livegate.core.testing.RecordingStatuses;
import io.livegate.core.webhook.WebhookReceiver;
import io.livegate.core.webhook.WebhookRequest;
import io.livegate.core.webhook.WebhookResponse;
import io.livegate.core.webhook.WebhookSignature;
import io.livegate.sql.testing.SyntheticDeployments;
import io.livegate.sql.testing.Together;
import io.livegate.sql.testing.Webhooks;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The webhook receiver with GitHub's example payloads, signed as GitHub signs them, against the
 * real engine on an embedded metadb.
 */
class WebhookReceiverTest {
  private static final String OPENED_HEAD = "ec26c3e57ca3a959ca5aad62de7213c562f8c821";
  private static final Accounts ACCOUNTS = SyntheticDeployments.accounts(1);

  private final Webhooks hooks = Webhooks.fresh();
  private final WebhookReceiver receiver = hooks.receiver;

  private WebhookResponse post(String event, ObjectNode payload) {
    return receiver.receive(signed(event, bytes(payload)));
  }

  private long rows(String table) {
    return hooks
        .engine
        .metadb
        .jdbi()
        .withHandle(h -> h.createQuery("SELECT count(*) FROM " + table).mapTo(Long.class).one());
  }

  private void assertNothingStored() {
    for (String table :
        List.of(
            "webhook_deliveries",
            "deployments",
            "pull_requests",
            "commit_statuses",
            "merge_locks")) {
      assertThat(rows(table)).as(table).isZero();
    }
    assertThat(hooks.plansRequested).isEmpty();
    assertThat(hooks.github.all()).isEmpty();
  }

  @Test
  void githubsDocumentedTestVectorVerifies() {
    byte[] secret = WebhookSignature.secret("It's a Secret to Everybody");
    byte[] body = "Hello, World!".getBytes(StandardCharsets.UTF_8);
    String expected = "sha256=757107ea0eb2509fc211221cce984b8a37570b6d7586c22c46f4379c8b043e17";
    assertThat(WebhookSignature.sign(secret, body)).isEqualTo(expected);
    assertThat(WebhookSignature.valid(secret, body, expected)).isTrue();
    assertThat(
            WebhookSignature.valid(
                secret, "Hello, World?".getBytes(StandardCharsets.UTF_8), expected))
        .isFalse();
  }

  @Test
  void missingMalformedOrWrongSignaturesAre401AndStoreNothing() {
    byte[] body = bytes(payload("pull_request.opened"));
    String good = WebhookSignature.sign(WebhookSignature.secret(Webhooks.SECRET), body);
    String otherSecret = WebhookSignature.sign(WebhookSignature.secret("not the secret"), body);
    for (String signature :
        new String[] {
          null,
          "",
          "sha256=",
          "sha1=" + good.substring(7, 47),
          good.substring(0, good.length() - 1),
          good + "0",
          "sha256=" + "z".repeat(64),
          otherSecret,
          good.toUpperCase()
              .replace("SHA256=", "sha256=")
              .replace(good.substring(7).toUpperCase(), flip(good.substring(7)))
        }) {
      Map<String, String> headers = new HashMap<>();
      headers.put("X-GitHub-Event", "pull_request");
      headers.put("X-GitHub-Delivery", "d-1");
      if (signature != null) {
        headers.put("X-Hub-Signature-256", signature);
      }
      assertThat(receiver.receive(new WebhookRequest(headers, body)).status())
          .as("signature %s", signature)
          .isEqualTo(401);
    }
    assertNothingStored();
  }

  /** The same hex digits with the first one changed. */
  private static String flip(String hex) {
    return (hex.charAt(0) == 'a' ? 'b' : 'a') + hex.substring(1);
  }

  @Test
  void pingIs200AndOtherEventsAreIgnoredWith202() {
    assertThat(post("ping", payload("ping"))).isEqualTo(new WebhookResponse(200, "pong"));
    WebhookResponse push = post("push", payload("push"));
    assertThat(push.status()).isEqualTo(202);
    assertThat(push.body()).isEqualTo("ignored: livegate acts on pull_request events, not push");
    assertThat(post("issues", payload("issues.opened")).body()).startsWith("ignored: ");
    WebhookResponse labeled = post("pull_request", payload("pull_request.labeled"));
    assertThat(labeled)
        .isEqualTo(
            new WebhookResponse(202, "ignored: action labeled changes nothing livegate shows"));
    assertNothingStored();
  }

  @Test
  void anOpenedPullRequestIsPlannedAndGetsItsMergeLockStatus() {
    WebhookResponse response = post("pull_request", payload("pull_request.opened"));

    assertThat(response)
        .isEqualTo(new WebhookResponse(202, "planning pull request #2 at ec26c3e57ca3"));
    assertThat(hooks.plansRequested).hasSize(1);
    assertThat(hooks.plansRequested.get(0).headSha()).isEqualTo(OPENED_HEAD);
    assertThat(hooks.plansRequested.get(0).baseSha())
        .isEqualTo("f95f852bd8fca8fcc58a9a2d6c842781e32a215e");
    assertThat(hooks.plansRequested.get(0).fromFork()).isFalse();
    assertThat(hooks.github.all())
        .containsExactly(
            new RecordingStatuses.Status(
                Webhooks.REPOSITORY,
                OPENED_HEAD,
                MergeGate.CONTEXT,
                State.SUCCESS,
                "no deployment in progress",
                "http://livegate.test/status"));
  }

  @Test
  void synchronizeAndReopenedArePlannedToo() {
    assertThat(post("pull_request", payload("pull_request.synchronize")).status()).isEqualTo(202);
    assertThat(post("pull_request", payload("pull_request.reopened")).status()).isEqualTo(202);
    assertThat(hooks.plansRequested).hasSize(2);
  }

  @Test
  void anEditWithABaseChangeIsPlannedAndOtherEditsAreIgnored() {
    ObjectNode edited = payload("pull_request.opened").put("action", "edited");
    edited.putObject("changes").putObject("title").put("from", "old title");
    assertThat(post("pull_request", edited).body())
        .isEqualTo("ignored: action edited without a base change changes nothing livegate shows");
    edited.putObject("changes").putObject("base").putObject("ref").put("from", "develop");
    assertThat(post("pull_request", edited).status()).isEqualTo(202);
    assertThat(hooks.plansRequested).hasSize(1);
  }

  @Test
  void aRepeatedDeliveryIsADuplicateAndDoesNothing() {
    byte[] body = bytes(payload("pull_request.opened"));
    WebhookResponse first = receiver.receive(signed("pull_request", body, "delivery-1"));
    WebhookResponse again = receiver.receive(signed("pull_request", body, "delivery-1"));

    assertThat(first.status()).isEqualTo(202);
    assertThat(again)
        .isEqualTo(new WebhookResponse(200, "duplicate: delivery delivery-1 was handled"));
    assertThat(hooks.plansRequested).hasSize(1);
    assertThat(hooks.github.all()).hasSize(1);
  }

  @Test
  void pullRequestsIntoOtherBranchesOrOfOtherRepositoriesAreIgnored() {
    ObjectNode intoDevelop = payload("pull_request.opened");
    ((ObjectNode) intoDevelop.get("pull_request").get("base")).put("ref", "develop");
    assertThat(post("pull_request", intoDevelop).body())
        .isEqualTo("ignored: pull request #2 merges into develop, not the trunk master");
    ObjectNode otherRepository = payload("pull_request.opened");
    ((ObjectNode) otherRepository.get("repository")).put("full_name", "someone/else");
    assertThat(post("pull_request", otherRepository).body())
        .isEqualTo("ignored: repository someone/else is not Codertocat/Hello-World");
    assertNothingStored();
  }

  @Test
  void aForkGetsNoPlanAndAStatusThatSaysWhy() {
    ObjectNode fork = payload("pull_request.opened");
    ((ObjectNode) fork.get("pull_request").get("head").get("repo"))
        .put("full_name", "mallory/Hello-World");
    WebhookResponse response = post("pull_request", fork);

    assertThat(response)
        .isEqualTo(new WebhookResponse(202, "pull request #2 is from a fork; not planned"));
    assertThat(hooks.plansRequested).isEmpty();
    assertThat(hooks.github.of(WebhookReceiver.PLAN_CONTEXT))
        .singleElement()
        .satisfies(
            status -> {
              assertThat(status.state()).isEqualTo(State.FAILURE);
              assertThat(status.description()).contains("forks are not planned");
            });
    Webhooks allowing = new Webhooks(LockScope.REPO, true);
    assertThat(allowing.receiver.receive(signed("pull_request", bytes(fork))).status())
        .isEqualTo(202);
    assertThat(allowing.plansRequested)
        .singleElement()
        .satisfies(h -> assertThat(h.fromFork()).isTrue());
  }

  @Test
  void malformedBodiesAre4xxAndStoreNothing() {
    byte[] huge = new byte[WebhookReceiver.MAX_BODY_BYTES + 1];
    assertThat(receiver.receive(signed("pull_request", huge)).status()).isEqualTo(413);
    assertThat(
            receiver.receive(signed("pull_request", "not json".getBytes(StandardCharsets.UTF_8))))
        .isEqualTo(new WebhookResponse(400, "refused: the body is not JSON"));
    assertThat(receiver.receive(signed("pull_request", "[1,2]".getBytes(StandardCharsets.UTF_8))))
        .isEqualTo(new WebhookResponse(400, "refused: the body is not a JSON object"));
    ObjectNode badSha = payload("pull_request.opened");
    ((ObjectNode) badSha.get("pull_request").get("head")).put("sha", "$(rm -rf /)");
    assertThat(post("pull_request", badSha))
        .isEqualTo(
            new WebhookResponse(
                400,
                "refused: malformed pull_request event: pull_request.head.sha is not a commit sha"));
    ObjectNode numberAsText = payload("pull_request.opened");
    ((ObjectNode) numberAsText.get("pull_request")).put("number", "2");
    assertThat(post("pull_request", numberAsText).body())
        .isEqualTo(
            "refused: malformed pull_request event: pull_request.number is not a positive number");
    ObjectNode mergedWithoutSha = merged(7, sha(7));
    ((ObjectNode) mergedWithoutSha.get("pull_request")).putNull("merge_commit_sha");
    assertThat(post("pull_request", mergedWithoutSha).status()).isEqualTo(400);
    ObjectNode mergedWithoutCommits = merged(7, sha(7));
    ((ObjectNode) mergedWithoutCommits.get("pull_request")).remove("commits");
    assertThat(post("pull_request", mergedWithoutCommits).body())
        .isEqualTo(
            "refused: malformed pull_request event: a merged pull request needs"
                + " pull_request.commits, at least 1");
    WebhookRequest noEvent =
        new WebhookRequest(
            Map.of(
                "X-Hub-Signature-256",
                WebhookSignature.sign(
                    WebhookSignature.secret(Webhooks.SECRET),
                    "{}".getBytes(StandardCharsets.UTF_8)),
                "X-GitHub-Delivery",
                "d"),
            "{}".getBytes(StandardCharsets.UTF_8));
    assertThat(receiver.receive(noEvent).status()).isEqualTo(400);
    assertNothingStored();
  }

  @Test
  void aMergeIsQueuedWithItsTitleAndAuthorTakesTheLockAndLaunchesItsScan() {
    WebhookResponse response = post("pull_request", merged(7, sha(7)));

    assertThat(response.status()).isEqualTo(200);
    assertThat(response.body()).startsWith("queued deployment ").contains("started deployment");
    Deployment deployment = hooks.engine.deployments.list(Webhooks.REPOSITORY).get(0);
    assertThat(deployment.status()).isEqualTo(DeploymentStatus.RUNNING);
    assertThat(deployment.stackStored()).isFalse();
    assertThat(deployment.pullRequest().mergeCommit()).isEqualTo(sha(7));
    // GitHub's own example payload's title and author, kept for the vote mail
    assertThat(deployment.pullRequest().title())
        .isEqualTo("Update the README with new information.");
    assertThat(deployment.pullRequest().author()).isEqualTo("Codertocat");
    assertThat(hooks.scans.launched()).containsExactly(deployment.id());
    assertThat(rows("merge_locks")).isEqualTo(1);
    assertThat(post("pull_request", merged(7, sha(7))).body()).startsWith("already queued");
    assertThat(hooks.scans.launched()).containsExactly(deployment.id(), deployment.id());
  }

  @Test
  void aMergeRedeliveredAfterItsScanLaunchFailedLaunchesTheScanThatNeverStarted() {
    hooks.scans.failNext("RunTask: ThrottlingException");
    WebhookResponse first = post("pull_request", merged(7, sha(7)));
    assertThat(first.status()).isEqualTo(503);
    Deployment deployment = hooks.engine.deployments.list(Webhooks.REPOSITORY).get(0);
    assertThat(deployment.status()).isEqualTo(DeploymentStatus.RUNNING);
    assertThat(hooks.scans.launched()).isEmpty();

    WebhookResponse redelivered = post("pull_request", merged(7, sha(7)));

    assertThat(redelivered.status()).isEqualTo(200);
    assertThat(redelivered.body())
        .isEqualTo(
            "already queued deployment "
                + deployment.id()
                + " of pull request #7; launched the scan of deployment "
                + deployment.id()
                + " again");
    assertThat(hooks.scans.launched()).containsExactly(deployment.id());
  }

  @Test
  void aClosedPullRequestHasItsPendingStatusesCleared() {
    post("pull_request", opened(3, sha(30)));
    // What the plans would post on the head: two units pending.
    hooks.gate.headChanged(hooks.plansRequested.get(0));
    var statuses =
        io.livegate.core.pr.StatusLedger.recording(
            hooks.github, hooks.engine.metadb.statuses(), java.time.Clock.systemUTC());
    statuses.publish(
        Webhooks.REPOSITORY, sha(30), "livegate/plan: live/a", State.PENDING, "planning", "");
    statuses.publish(
        Webhooks.REPOSITORY, sha(30), "livegate/plan: live/b", State.SUCCESS, "+1 ~0 -0", "");

    ObjectNode closed = payload("pull_request.closed");
    ((ObjectNode) closed.get("pull_request")).put("number", 3);
    ((ObjectNode) closed.get("pull_request").get("head")).put("sha", sha(30));
    assertThat(post("pull_request", closed))
        .isEqualTo(new WebhookResponse(200, "pull request #3 closed without merging"));

    List<RecordingStatuses.Status> cleared =
        hooks.github.all().subList(hooks.github.all().size() - 1, hooks.github.all().size());
    assertThat(cleared)
        .containsExactly(
            new RecordingStatuses.Status(
                Webhooks.REPOSITORY,
                sha(30),
                "livegate/plan: live/a",
                State.ERROR,
                "pull request #3 was closed without merging",
                ""));
    assertThat(hooks.engine.metadb.pullRequests().open(Webhooks.REPOSITORY)).isEmpty();
  }

  @Test
  void releasingTheLockRepostsTheStatusesOfBlockedPullRequests() {
    post("pull_request", merged(7, sha(7)));
    post("pull_request", opened(8, sha(80)));
    assertThat(hooks.github.of(MergeGate.CONTEXT))
        .last()
        .satisfies(
            status -> {
              assertThat(status.sha()).isEqualTo(sha(80));
              assertThat(status.state()).isEqualTo(State.PENDING);
              assertThat(status.description()).isEqualTo("deployment of PR #7 in progress");
            });

    Deployment deployment = hooks.engine.deployments.list(Webhooks.REPOSITORY).get(0);
    hooks.storeStack(
        deployment.pullRequest(),
        ACCOUNTS,
        List.of(unit("account-0/a", "account-0", 0, List.of())));
    hooks.advance.created(deployment.id());
    Execution a = hooks.engine.executions.list(deployment.id()).get(0);
    hooks.advance.flowEnded(a.name(), ExecutionStatus.SUCCEEDED);

    assertThat(hooks.engine.deployments.find(deployment.id()).orElseThrow().status())
        .isEqualTo(DeploymentStatus.SUCCEEDED);
    assertThat(rows("merge_locks")).isZero();
    assertThat(hooks.github.of(MergeGate.CONTEXT))
        .last()
        .isEqualTo(
            new RecordingStatuses.Status(
                Webhooks.REPOSITORY,
                sha(80),
                MergeGate.CONTEXT,
                State.SUCCESS,
                "no deployment in progress",
                "http://livegate.test/status"));
  }

  @Test
  void inUnitsScopeOnlyPullRequestsTouchingTheDeploymentAreBlocked() {
    Webhooks units = new Webhooks(LockScope.UNITS, false);
    units.receiver.receive(signed("pull_request", bytes(merged(7, sha(7)))));
    Deployment deployment = units.engine.deployments.list(Webhooks.REPOSITORY).get(0);
    units.storeStack(
        deployment.pullRequest(),
        ACCOUNTS,
        List.of(unit("account-0/a", "account-0", 0, List.of())));
    units.receiver.receive(signed("pull_request", bytes(opened(8, sha(80)))));
    units.receiver.receive(signed("pull_request", bytes(opened(9, sha(90)))));
    assertThat(units.github.of(MergeGate.CONTEXT))
        .extracting(RecordingStatuses.Status::description)
        .containsOnly("deployment of PR #7 in progress; waiting for this head's plan");

    units.gate.unitsNamed(units.plansRequested.get(0), java.util.Set.of("account-0/a"));
    units.gate.unitsNamed(units.plansRequested.get(1), java.util.Set.of("account-0/b"));

    List<RecordingStatuses.Status> latest = units.github.of(MergeGate.CONTEXT);
    assertThat(latest.subList(latest.size() - 2, latest.size()))
        .extracting(
            RecordingStatuses.Status::sha,
            RecordingStatuses.Status::state,
            RecordingStatuses.Status::description)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple(
                sha(80), State.PENDING, "deployment of PR #7 in progress; both change account-0/a"),
            org.assertj.core.groups.Tuple.tuple(
                sha(90), State.SUCCESS, "touches no unit of the deployment of PR #7"));
  }

  @Test
  void twoMergesArrivingTogetherAreBothQueuedAndOneHoldsTheLock() {
    List<WebhookResponse> responses =
        Together.run(2, i -> post("pull_request", merged(20 + i, sha(20 + i))));

    assertThat(responses).extracting(WebhookResponse::status).containsOnly(200);
    List<Deployment> queue = hooks.engine.deployments.list(Webhooks.REPOSITORY);
    assertThat(queue).hasSize(2);
    assertThat(queue)
        .extracting(Deployment::status)
        .containsExactly(DeploymentStatus.RUNNING, DeploymentStatus.QUEUED);
    assertThat(hooks.scans.launched()).containsExactly(queue.get(0).id());
    String holder =
        hooks
            .engine
            .metadb
            .jdbi()
            .withHandle(
                h ->
                    h.createQuery("SELECT merge_commit FROM merge_locks")
                        .mapTo(String.class)
                        .one());
    assertThat(holder).isEqualTo(queue.get(0).pullRequest().mergeCommit());

    // The first deployment's scan fails; the lock passes to the second, whose scan is launched.
    hooks.advance.scanFailed(queue.get(0).id(), "the checkout failed");
    assertThat(hooks.engine.deployments.find(queue.get(0).id()).orElseThrow().status())
        .isEqualTo(DeploymentStatus.FAILED);
    assertThat(hooks.engine.deployments.find(queue.get(1).id()).orElseThrow().status())
        .isEqualTo(DeploymentStatus.RUNNING);
    assertThat(hooks.scans.launched()).containsExactly(queue.get(0).id(), queue.get(1).id());
    String next =
        hooks
            .engine
            .metadb
            .jdbi()
            .withHandle(
                h ->
                    h.createQuery("SELECT merge_commit FROM merge_locks")
                        .mapTo(String.class)
                        .one());
    assertThat(next).isEqualTo(queue.get(1).pullRequest().mergeCommit());
  }
}
