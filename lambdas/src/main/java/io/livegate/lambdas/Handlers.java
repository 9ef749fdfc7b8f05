package io.livegate.lambdas;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.livegate.core.LivegateException;
import io.livegate.statemachine.FlowJson;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;

/** What the handlers share: reading an event as a JSON tree, and writing an answer. */
public final class Handlers {
  public static final ObjectMapper JSON = FlowJson.MAPPER;

  /** No event this livegate receives comes near this size; a larger one is refused unread. */
  static final int MAX_EVENT = 6 * 1024 * 1024;

  private Handlers() {}

  public static JsonNode read(InputStream input, String what) {
    try {
      byte[] bytes = input.readNBytes(MAX_EVENT + 1);
      if (bytes.length > MAX_EVENT) {
        throw new LivegateException(what + " is larger than " + MAX_EVENT + " bytes");
      }
      JsonNode node = JSON.readTree(bytes);
      if (node == null || !node.isObject()) {
        throw new LivegateException(what + " is not a JSON object");
      }
      return node;
    } catch (IOException e) {
      throw new LivegateException(what + " is not JSON: " + e.getMessage(), e);
    }
  }

  public static void write(OutputStream output, JsonNode answer) throws IOException {
    output.write(answer.toString().getBytes(StandardCharsets.UTF_8));
  }
}
