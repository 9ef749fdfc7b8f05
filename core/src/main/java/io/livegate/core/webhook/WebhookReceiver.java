package io.livegate.core.webhook;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.livegate.core.Jackson;
import io.livegate.core.deploy.AdvanceDeployment;
import io.livegate.core.deploy.CommitStatusPublisher;
import io.livegate.core.deploy.MergedPullRequest;
import io.livegate.core.pr.MergeGate;
import io.livegate.core.pr.PullRequestHead;
import io.livegate.core.pr.PullRequestPlanner;
import java.io.IOException;
import java.time.Clock;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * GitHub's webhook deliveries, on AWS and on one machine alike.
 *
 * <ol>
 *   <li>A body over {@value #MAX_BODY_BYTES} bytes is refused (413) before anything else.
 *   <li>A missing, malformed or wrong {@code X-Hub-Signature-256} is 401.
 *   <li>{@code ping} is 200; events other than {@code pull_request} are 202 "ignored: ...".
 *   <li>A body that is not a JSON object, or a pull request event without the fields livegate
 *       reads, is 400. Pull requests of another repository or into another branch than the trunk
 *       are 202 "ignored: ...".
 *   <li>A delivery id seen before is 200 "duplicate" and does nothing.
 *   <li>Opened, reopened, synchronized, or retargeted (edited with a base change): plans are
 *       requested (not for forks, unless allowed) and the merge-lock status is posted. Merged: the
 *       deployment is queued, and started when the lock is free. Closed without a merge: the pull
 *       request's pending statuses are cleared.
 * </ol>
 *
 * Nothing is stored for a refused request. Slow work (scans, plans) happens elsewhere, so the
 * answer comes well inside GitHub's 10 seconds. When routing fails part-way (the metadb is down),
 * the answer is 503 and the delivery is forgotten, so GitHub's redelivery is handled in full.
 */
public final class WebhookReceiver {
  public static final int MAX_BODY_BYTES = 25 * 1024 * 1024;
  public static final String EVENT_HEADER = "X-GitHub-Event";
  public static final String DELIVERY_HEADER = "X-GitHub-Delivery";

  /** The status posted on a fork's head when it gets no plans. */
  public static final String PLAN_CONTEXT = "livegate/plan";

  private static final Set<String> PLANNED_ACTIONS = Set.of("opened", "reopened", "synchronize");
  private static final Pattern SHA = Pattern.compile("[0-9a-f]{40}|[0-9a-f]{64}");
  private static final Pattern DELIVERY = Pattern.compile("[A-Za-z0-9-]{1,100}");
  private static final Pattern EVENT = Pattern.compile("[a-z_]{1,64}");
  private static final ObjectMapper JSON = Jackson.MAPPER;

  private final WebhookSettings settings;
  private final DeliveryLog deliveries;
  private final PullRequestPlanner planner;
  private final MergeGate gate;
  private final AdvanceDeployment deployments;
  private final CommitStatusPublisher statuses;
  private final Clock clock;

  public WebhookReceiver(
      WebhookSettings settings,
      DeliveryLog deliveries,
      PullRequestPlanner planner,
      MergeGate gate,
      AdvanceDeployment deployments,
      CommitStatusPublisher statuses,
      Clock clock) {
    this.settings = settings;
    this.deliveries = deliveries;
    this.planner = planner;
    this.gate = gate;
    this.deployments = deployments;
    this.statuses = statuses;
    this.clock = clock;
  }

  public WebhookResponse receive(WebhookRequest request) {
    if (request.body().length > MAX_BODY_BYTES) {
      return new WebhookResponse(413, "refused: the body is over 25 MB");
    }
    if (!WebhookSignature.valid(
        settings.secret().get(),
        request.body(),
        request.header(WebhookSignature.HEADER).orElse(null))) {
      return new WebhookResponse(
          401, "refused: missing or wrong " + WebhookSignature.HEADER + " signature");
    }
    Optional<String> event = request.header(EVENT_HEADER);
    Optional<String> delivery = request.header(DELIVERY_HEADER);
    if (event.isEmpty() || !EVENT.matcher(event.get()).matches()) {
      return new WebhookResponse(400, "refused: no valid " + EVENT_HEADER + " header");
    }
    if (delivery.isEmpty() || !DELIVERY.matcher(delivery.get()).matches()) {
      return new WebhookResponse(400, "refused: no valid " + DELIVERY_HEADER + " header");
    }
    JsonNode body;
    try {
      body = JSON.readTree(request.body());
    } catch (JsonProcessingException e) {
      return new WebhookResponse(400, "refused: the body is not JSON");
    } catch (IOException e) {
      return new WebhookResponse(400, "refused: the body cannot be read");
    }
    if (body == null || !body.isObject()) {
      return new WebhookResponse(400, "refused: the body is not a JSON object");
    }
    if (event.get().equals("ping")) {
      return new WebhookResponse(200, "pong");
    }
    if (!event.get().equals("pull_request")) {
      return new WebhookResponse(
          202, "ignored: livegate acts on pull_request events, not " + event.get());
    }
    PullRequestEvent pr;
    try {
      pr = PullRequestEvent.parse(body);
    } catch (MalformedEvent e) {
      return new WebhookResponse(400, "refused: " + e.getMessage());
    }
    Optional<String> ignored = ignored(pr);
    if (ignored.isPresent()) {
      return new WebhookResponse(202, "ignored: " + ignored.get());
    }
    if (!deliveries.firstArrival(delivery.get(), event.get(), clock.instant())) {
      return new WebhookResponse(200, "duplicate: delivery " + delivery.get() + " was handled");
    }
    try {
      return route(pr);
    } catch (RuntimeException e) {
      deliveries.forget(delivery.get());
      return new WebhookResponse(503, "not handled, redeliver it: " + e.getMessage());
    }
  }

  private Optional<String> ignored(PullRequestEvent pr) {
    if (!pr.head().repository().equals(settings.repository())) {
      return Optional.of(
          "repository " + pr.head().repository() + " is not " + settings.repository());
    }
    if (!pr.head().baseRef().equals(settings.trunk())) {
      return Optional.of(
          "pull request #"
              + pr.head().number()
              + " merges into "
              + pr.head().baseRef()
              + ", not the trunk "
              + settings.trunk());
    }
    boolean planned =
        PLANNED_ACTIONS.contains(pr.action()) || (pr.action().equals("edited") && pr.baseChanged());
    if (!planned && !pr.action().equals("closed")) {
      return Optional.of(
          "action "
              + pr.action()
              + (pr.action().equals("edited") ? " without a base change" : "")
              + " changes nothing livegate shows");
    }
    return Optional.empty();
  }

  private WebhookResponse route(PullRequestEvent pr) {
    PullRequestHead head = pr.head();
    if (pr.action().equals("closed")) {
      if (pr.merged()) {
        MergedPullRequest merge =
            MergedPullRequest.fromGitHub(
                    head.repository(),
                    head.number(),
                    head.baseRef(),
                    pr.headRef(),
                    head.baseSha(),
                    pr.mergeCommit(),
                    head.headSha(),
                    pr.commits())
                .titled(pr.title(), pr.author());
        gate.closed(head, true);
        return new WebhookResponse(200, deployments.merged(merge).message());
      }
      gate.closed(head, false);
      return new WebhookResponse(200, "pull request #" + head.number() + " closed without merging");
    }
    gate.headChanged(head);
    if (head.fromFork() && !settings.allowForkPullRequests()) {
      statuses.publish(
          head.repository(),
          head.headSha(),
          PLAN_CONTEXT,
          CommitStatusPublisher.State.FAILURE,
          "not planned: pull requests from forks are not planned unless the installation allows it",
          "");
      return new WebhookResponse(
          202, "pull request #" + head.number() + " is from a fork; not planned");
    }
    planner.requestPlans(head);
    return new WebhookResponse(
        202, "planning pull request #" + head.number() + " at " + head.headSha().substring(0, 12));
  }

  /** The fields of a pull_request event that livegate reads, checked for type and form. */
  private record PullRequestEvent(
      String action,
      PullRequestHead head,
      String headRef,
      boolean baseChanged,
      boolean merged,
      String mergeCommit,
      int commits,
      String title,
      String author) {

    static PullRequestEvent parse(JsonNode body) {
      String action = text(body, "action");
      String repository = text(body.path("repository"), "full_name", "repository.full_name");
      JsonNode pr = body.path("pull_request");
      if (!pr.isObject()) {
        throw new MalformedEvent("pull_request is not an object");
      }
      JsonNode number = pr.path("number");
      if (!number.isIntegralNumber() || !number.canConvertToInt() || number.asInt() <= 0) {
        throw new MalformedEvent("pull_request.number is not a positive number");
      }
      String baseRef = text(pr.path("base"), "ref", "pull_request.base.ref");
      String baseSha = sha(pr.path("base"), "pull_request.base.sha");
      String headSha = sha(pr.path("head"), "pull_request.head.sha");
      String headRef = text(pr.path("head"), "ref", "pull_request.head.ref");
      JsonNode headRepo = pr.path("head").path("repo");
      boolean fromFork =
          !headRepo.isObject() || !repository.equals(headRepo.path("full_name").asText(""));
      JsonNode merged = pr.path("merged");
      boolean isMerged = merged.isBoolean() && merged.asBoolean();
      String mergeCommit = null;
      int commits = 0;
      if (action.equals("closed") && isMerged) {
        JsonNode sha = pr.path("merge_commit_sha");
        if (!sha.isTextual() || !SHA.matcher(sha.asText()).matches()) {
          throw new MalformedEvent("a merged pull request needs a merge_commit_sha");
        }
        mergeCommit = sha.asText();
        // The scan steps back this many commits from a rebase merge's head to the trunk before it.
        JsonNode count = pr.path("commits");
        if (!count.isIntegralNumber() || !count.canConvertToInt() || count.asInt() < 1) {
          throw new MalformedEvent("a merged pull request needs pull_request.commits, at least 1");
        }
        commits = count.asInt();
      }
      return new PullRequestEvent(
          action,
          new PullRequestHead(repository, number.asInt(), baseRef, baseSha, headSha, fromFork),
          headRef,
          body.path("changes").path("base").isObject(),
          isMerged,
          mergeCommit,
          commits,
          // shown to voters, never read for a decision: a payload without them is still a merge
          pr.path("title").asText(""),
          pr.path("user").path("login").asText(""));
    }

    private static String text(JsonNode node, String field) {
      return text(node, field, field);
    }

    private static String text(JsonNode node, String field, String path) {
      JsonNode value = node.path(field);
      if (!value.isTextual() || value.asText().isBlank() || value.asText().length() > 255) {
        throw new MalformedEvent(path + " is not a short text");
      }
      return value.asText();
    }

    private static String sha(JsonNode node, String path) {
      JsonNode value = node.path("sha");
      if (!value.isTextual() || !SHA.matcher(value.asText()).matches()) {
        throw new MalformedEvent(path + " is not a commit sha");
      }
      return value.asText();
    }
  }

  private static final class MalformedEvent extends RuntimeException {
    MalformedEvent(String message) {
      super("malformed pull_request event: " + message, null, false, false);
    }
  }
}
