package io.livegate.lambdas.trigger;

import com.fasterxml.jackson.databind.JsonNode;
import io.livegate.core.LivegateException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The parts of EventBridge's "ECS Task State Change" for a stopped task that the trigger reads:
 * which task, what it was started for (its container's command, environment and {@code startedBy}),
 * and why it stopped.
 *
 * @param exitCode the container's exit code; {@code null} when it never ran (an image that could
 *     not be pulled, a task that could not be placed)
 */
record StoppedTask(
    String taskArn,
    String startedBy,
    List<String> command,
    Map<String, String> environment,
    Integer exitCode,
    String stoppedReason) {

  static StoppedTask parse(JsonNode detail) {
    String taskArn = detail.path("taskArn").asText("");
    if (taskArn.isEmpty()) {
      throw new LivegateException("the ECS task state change names no task: " + detail);
    }
    JsonNode override = detail.path("overrides").path("containerOverrides").path(0);
    List<String> command = new ArrayList<>();
    override.path("command").forEach(part -> command.add(part.asText()));
    Map<String, String> environment = new HashMap<>();
    override
        .path("environment")
        .forEach(pair -> environment.put(pair.path("name").asText(), pair.path("value").asText()));
    JsonNode exit = detail.path("containers").path(0).path("exitCode");
    return new StoppedTask(
        taskArn,
        detail.path("startedBy").asText(""),
        List.copyOf(command),
        Map.copyOf(environment),
        exit.isIntegralNumber() ? exit.asInt() : null,
        detail.path("stoppedReason").asText("no reason given"));
  }

  /** "task ARN stopped with exit code 137: OutOfMemoryError", for statuses and logs. */
  String why() {
    return "task "
        + taskArn
        + " stopped"
        + (exitCode == null ? " before its container ran" : " with exit code " + exitCode)
        + ": "
        + stoppedReason;
  }
}
