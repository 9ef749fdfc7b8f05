package io.livegate.lambdas;

import com.amazonaws.services.lambda.runtime.Context;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.livegate.core.LivegateException;
import io.livegate.core.Printable;
import io.livegate.statemachine.FlowJson;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;

/** What the handlers share: reading an event as a JSON tree, writing an answer, logging. */
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

  /**
   * Logs {@code message} as one line of the function's log, when there is a runtime to log to.
   * Messages carry what events bring (branch names, unit paths, pull request titles): every control
   * character is escaped, the newline too, so that one message is one line and cannot forge another
   * ({@link Printable#escape}).
   */
  public static void log(Context context, Object message) {
    if (context != null) {
      context.getLogger().log(Printable.escape(String.valueOf(message)) + "\n");
    }
  }

  /**
   * A log for messages that arrive outside a request's context (GitHub statuses): as {@link #log}.
   */
  public static void log(String message) {
    System.out.println(Printable.escape(message));
  }

  public static void write(OutputStream output, JsonNode answer) throws IOException {
    output.write(answer.toString().getBytes(StandardCharsets.UTF_8));
  }
}
