package io.livegate.statemachine;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.livegate.core.LivegateException;
import io.livegate.core.deploy.PlanSummary;
import java.util.ArrayList;
import java.util.List;

/**
 * What terra-run's plan mode returns through the task token, and what the flow keeps at {@code
 * $.plan}: where the plan file is, its SHA-256, its summary and where its log is.
 *
 * @param artifact the plan file's S3 key
 * @param logUrl the task's log, for people; may be empty
 */
public record PlanResult(String artifact, String sha256, PlanSummary summary, String logUrl) {
  public static final String ARTIFACT = "artifact";
  public static final String SHA256 = "sha256";
  public static final String ADD = "add";
  public static final String CHANGE = "change";
  public static final String DESTROY = "destroy";
  public static final String NEW_PROVIDERS = "newProviders";
  public static final String LOG_URL = "logUrl";

  public String toJson() {
    return toNode().toString();
  }

  ObjectNode toNode() {
    ObjectNode node = FlowJson.MAPPER.createObjectNode();
    node.put(ARTIFACT, artifact);
    node.put(SHA256, sha256);
    node.put(ADD, summary.add());
    node.put(CHANGE, summary.change());
    node.put(DESTROY, summary.destroy());
    summary.newProviders().forEach(node.putArray(NEW_PROVIDERS)::add);
    node.put(LOG_URL, logUrl == null ? "" : logUrl);
    return node;
  }

  public static PlanResult fromJson(String json) {
    return fromNode(FlowJson.object(json, "a plan result"));
  }

  static PlanResult fromNode(JsonNode node) {
    String what = "a plan result";
    List<String> providers = new ArrayList<>();
    JsonNode listed = node.path(NEW_PROVIDERS);
    if (!listed.isMissingNode() && !listed.isArray()) {
      throw new LivegateException(what + " has a '" + NEW_PROVIDERS + "' that is not a list");
    }
    listed.forEach(provider -> providers.add(provider.asText()));
    String sha256 = FlowJson.text(node, SHA256, what);
    if (!sha256.matches("[0-9a-f]{64}")) {
      throw new LivegateException(what + " has a '" + SHA256 + "' that is not a SHA-256");
    }
    return new PlanResult(
        FlowJson.text(node, ARTIFACT, what),
        sha256,
        new PlanSummary(
            FlowJson.count(node, ADD, what),
            FlowJson.count(node, CHANGE, what),
            FlowJson.count(node, DESTROY, what),
            List.copyOf(providers)),
        node.path(LOG_URL).asText(""));
  }
}
