package io.livegate.statemachine;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.livegate.core.Jackson;
import io.livegate.core.LivegateException;

/**
 * Reads the JSON documents of the deploy flow with Jackson's tree model: no reflection, so a cold
 * Lambda pays nothing for binding. Every reader names the document and the field that is wrong. Its
 * mapper is the one that the AWS adapters and handlers share.
 */
public final class FlowJson {
  public static final ObjectMapper MAPPER = Jackson.MAPPER;

  private FlowJson() {}

  static ObjectNode object(String json, String what) {
    JsonNode node;
    try {
      node = MAPPER.readTree(json == null ? "" : json);
    } catch (JsonProcessingException e) {
      throw new LivegateException(what + " is not JSON: " + e.getOriginalMessage());
    }
    if (node == null || !node.isObject()) {
      throw new LivegateException(what + " is not a JSON object");
    }
    return (ObjectNode) node;
  }

  static String text(JsonNode node, String field, String what) {
    JsonNode value = node.get(field);
    if (value == null || !value.isTextual() || value.asText().isBlank()) {
      throw new LivegateException(what + " needs the text field '" + field + "'");
    }
    return value.asText();
  }

  static long number(JsonNode node, String field, String what) {
    JsonNode value = node.get(field);
    if (value == null || !value.canConvertToLong() || !value.isIntegralNumber()) {
      throw new LivegateException(what + " needs the whole-number field '" + field + "'");
    }
    return value.asLong();
  }

  static int count(JsonNode node, String field, String what) {
    long value = number(node, field, what);
    if (value < 0 || value > Integer.MAX_VALUE) {
      throw new LivegateException(what + " has a negative or huge '" + field + "'");
    }
    return (int) value;
  }

  static ObjectNode child(JsonNode node, String field, String what) {
    JsonNode value = node.get(field);
    if (value == null || !value.isObject()) {
      throw new LivegateException(what + " needs the object field '" + field + "'");
    }
    return (ObjectNode) value;
  }
}
