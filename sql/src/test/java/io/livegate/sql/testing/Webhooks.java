package io.livegate.sql.testing;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.livegate.core.account.Accounts;
import io.livegate.core.deploy.AdvanceDeployment;
import io.livegate.core.deploy.CreateDeploymentCommand;
import io.livegate.core.deploy.FailurePolicy;
import io.livegate.core.deploy.MergedPullRequest;
import io.livegate.core.engine.Engine;
import io.livegate.core.pr.LockScope;
import io.livegate.core.pr.MergeGate;
import io.livegate.core.pr.PullRequestHead;
import io.livegate.core.runner.RunnerArgv;
import io.livegate.core.stack.DeployStack;
import io.livegate.core.stack.PlannedExecution;
import io.livegate.core.testing.RecordingStatuses;
import io.livegate.core.webhook.WebhookReceiver;
import io.livegate.core.webhook.WebhookRequest;
import io.livegate.core.webhook.WebhookSettings;
import io.livegate.core.webhook.WebhookSignature;
import io.livegate.sql.Metadb;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * The webhook receiver on a fresh embedded metadb, with the real engine, gate and metadb lock, and
 * recorders for the ports that leave the process (plans, scans, flows, GitHub statuses). Payloads
 * are {@code @octokit/webhooks-examples} 7.6.1's (see {@code src/test/resources/github}).
 */
public final class Webhooks {
  public static final String SECRET = "It's a Secret to Everybody";
  public static final String REPOSITORY = "Codertocat/Hello-World";
  public static final String TRUNK = "master";
  private static final ObjectMapper JSON = new ObjectMapper();

  public final TestEngine engine;
  public final RecordingStatuses github = new RecordingStatuses();
  public final List<PullRequestHead> plansRequested = new ArrayList<>();
  public final RecordingScanLauncher scans = new RecordingScanLauncher();
  public final InMemoryFlowLauncher flows = new InMemoryFlowLauncher();
  public final MergeGate gate;
  public final AdvanceDeployment advance;
  public final WebhookReceiver receiver;

  public Webhooks(LockScope scope, boolean allowForks) {
    this.engine = new TestEngine(EmbeddedMetadb.fresh(), FailurePolicy.ABORT_DEPENDENTS);
    Metadb metadb = engine.metadb;
    Clock clock = Clock.systemUTC();
    Engine wired = engine.engine(flows, scans, metadb.mergeLock(clock), github, scope);
    this.gate = wired.gate();
    this.advance = wired.advance();
    this.receiver =
        new WebhookReceiver(
            new WebhookSettings(
                () -> WebhookSignature.secret(SECRET), REPOSITORY, TRUNK, allowForks),
            metadb.deliveries(),
            head -> {
              synchronized (plansRequested) {
                plansRequested.add(head);
              }
            },
            gate,
            advance,
            wired.statuses(),
            clock);
  }

  public static Webhooks fresh() {
    return new Webhooks(LockScope.REPO, false);
  }

  /** A stored example payload, as a mutable tree. */
  public static ObjectNode payload(String name) {
    try (InputStream in = Webhooks.class.getResourceAsStream("/github/" + name + ".json")) {
      return (ObjectNode) JSON.readTree(in);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** {@code body} as GitHub sends it: signed, with the event's name and a new delivery id. */
  public static WebhookRequest signed(String event, byte[] body) {
    return signed(event, body, UUID.randomUUID().toString());
  }

  public static WebhookRequest signed(String event, byte[] body, String delivery) {
    return new WebhookRequest(
        Map.of(
            "X-GitHub-Event",
            event,
            "X-GitHub-Delivery",
            delivery,
            "X-Hub-Signature-256",
            WebhookSignature.sign(WebhookSignature.secret(SECRET), body),
            "Content-Type",
            "application/json"),
        body);
  }

  public static byte[] bytes(ObjectNode payload) {
    return payload.toString().getBytes(java.nio.charset.StandardCharsets.UTF_8);
  }

  /** The closed example, merged as pull request {@code number} with merge commit {@code sha}. */
  public static ObjectNode merged(int number, String sha) {
    ObjectNode payload = payload("pull_request.closed");
    ObjectNode pr = (ObjectNode) payload.get("pull_request");
    pr.put("merged", true).put("merge_commit_sha", sha).put("number", number);
    payload.put("number", number);
    return payload;
  }

  /** The opened example as pull request {@code number} at head {@code sha}. */
  public static ObjectNode opened(int number, String sha) {
    ObjectNode payload = payload("pull_request.opened");
    ObjectNode pr = (ObjectNode) payload.get("pull_request");
    pr.put("number", number);
    ((ObjectNode) pr.get("head")).put("sha", sha);
    payload.put("number", number);
    return payload;
  }

  /** Stores the stack create-deploy-stack would store for {@code merge}: {@code units}. */
  public long storeStack(MergedPullRequest merge, Accounts accounts, List<PlannedExecution> units) {
    DeployStack stack =
        SyntheticDeployments.stack(merge.baseCommit(), merge.mergeCommit(), accounts, units);
    return engine
        .create
        .create(new CreateDeploymentCommand(merge, stack, accounts, RunnerArgv.TERRAFORM))
        .deployment()
        .id();
  }

  /** A 40-character hex sha made from {@code n}. */
  public static String sha(int n) {
    return String.format("%040x", n);
  }
}
