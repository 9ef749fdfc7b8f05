package io.livegate.statemachine;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.livegate.core.LivegateException;
import io.livegate.core.deploy.CommitStatusPublisher;
import io.livegate.core.pr.PlanPullRequestResult;
import io.livegate.core.pr.PostedStatus;
import io.livegate.core.pr.PullRequestHead;
import java.util.ArrayList;
import java.util.List;

/**
 * The events that the ECS tasks and the webhook send the trigger (an asynchronous Lambda invoke): a
 * deployment's stack stored, its scan failed, a pull request's head planned, commit statuses to
 * post. The tasks write them and the trigger reads them, so both take the shape from here.
 */
public final class TriggerEvent {
  public static final String DEPLOYMENT_CREATED = "deploymentCreated";
  public static final String SCAN_FAILED = "scanFailed";
  public static final String PR_PLANNED = "prPlanned";
  public static final String POST_STATUSES = "postStatuses";

  /** A pull request's head and what planning it found, as a {@value #PR_PLANNED} event says. */
  public record PlannedHead(PullRequestHead head, PlanPullRequestResult result) {}

  private TriggerEvent() {}

  /** The payload pr-plan dispatch sends when it has planned a pull request's head. */
  public static String prPlanned(PullRequestHead head, PlanPullRequestResult result) {
    ObjectNode event = FlowJson.MAPPER.createObjectNode();
    ObjectNode planned = event.putObject(PR_PLANNED);
    planned
        .put("repository", head.repository())
        .put("number", head.number())
        .put("baseRef", head.baseRef())
        .put("baseSha", head.baseSha())
        .put("headSha", head.headSha())
        .put("fromFork", head.fromFork())
        .put("outcome", result.outcome().name())
        .put("message", result.message());
    ArrayNode units = planned.putArray("units");
    result.units().forEach(units::add);
    return event.toString();
  }

  /** The payload the webhook sends with the commit statuses it held back while it answered. */
  public static String postStatuses(List<PostedStatus> statuses) {
    ObjectNode event = FlowJson.MAPPER.createObjectNode();
    ArrayNode list = event.putArray(POST_STATUSES);
    for (PostedStatus status : statuses) {
      list.addObject()
          .put("repository", status.repository())
          .put("sha", status.sha())
          .put("context", status.context())
          .put("state", status.state().name())
          .put("description", status.description())
          .put("targetUrl", status.targetUrl());
    }
    return event.toString();
  }

  /** Reads the list of a {@value #POST_STATUSES} event. */
  public static List<PostedStatus> statuses(JsonNode list) {
    if (!list.isArray()) {
      throw new LivegateException(POST_STATUSES + " must be a list of statuses, not " + list);
    }
    List<PostedStatus> statuses = new ArrayList<>();
    for (JsonNode status : list) {
      String repository = status.path("repository").asText("");
      String sha = status.path("sha").asText("");
      String context = status.path("context").asText("");
      CommitStatusPublisher.State state;
      try {
        state = CommitStatusPublisher.State.valueOf(status.path("state").asText(""));
      } catch (IllegalArgumentException e) {
        throw new LivegateException(POST_STATUSES + " names no commit state: " + status);
      }
      if (repository.isEmpty() || sha.isEmpty() || context.isEmpty()) {
        throw new LivegateException(
            POST_STATUSES + " lacks a repository, sha or context: " + status);
      }
      statuses.add(
          new PostedStatus(
              repository,
              sha,
              context,
              state,
              status.path("description").asText(""),
              status.path("targetUrl").asText("")));
    }
    return statuses;
  }

  /** The payload create-deploy-stack sends once the deployment's stack is stored. */
  public static String deploymentCreated(long deploymentId) {
    return FlowJson.MAPPER.createObjectNode().put(DEPLOYMENT_CREATED, deploymentId).toString();
  }

  /** The payload create-deploy-stack sends when it could not store the stack. */
  public static String scanFailed(long deploymentId, String reason) {
    return FlowJson.MAPPER
        .createObjectNode()
        .put(SCAN_FAILED, deploymentId)
        .put("reason", reason)
        .toString();
  }

  /** Reads the body of a {@value #PR_PLANNED} event. */
  public static PlannedHead plannedHead(JsonNode planned) {
    PullRequestHead head;
    PlanPullRequestResult result;
    try {
      head =
          new PullRequestHead(
              planned.path("repository").asText(null),
              planned.path("number").asInt(0),
              planned.path("baseRef").asText(null),
              planned.path("baseSha").asText(null),
              planned.path("headSha").asText(null),
              planned.path("fromFork").asBoolean(false));
      List<String> units = new ArrayList<>();
      planned.path("units").forEach(unit -> units.add(unit.asText()));
      result =
          new PlanPullRequestResult(
              PlanPullRequestResult.Outcome.valueOf(planned.path("outcome").asText("")),
              units,
              planned.path("message").asText(""));
    } catch (IllegalArgumentException e) {
      throw new LivegateException(PR_PLANNED + " is not a planned pull request: " + planned);
    }
    return new PlannedHead(head, result);
  }
}
