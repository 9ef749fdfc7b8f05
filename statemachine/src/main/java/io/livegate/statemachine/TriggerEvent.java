package io.livegate.statemachine;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.livegate.core.LivegateException;
import io.livegate.core.pr.PlanPullRequestResult;
import io.livegate.core.pr.PullRequestHead;
import java.util.ArrayList;
import java.util.List;

/**
 * The events that the ECS tasks send the trigger (an asynchronous Lambda invoke): a deployment's
 * stack stored, its scan failed, a pull request's head planned. The tasks write them and the
 * trigger reads them, so both take the shape from here.
 */
public final class TriggerEvent {
  public static final String DEPLOYMENT_CREATED = "deploymentCreated";
  public static final String SCAN_FAILED = "scanFailed";
  public static final String PR_PLANNED = "prPlanned";

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
