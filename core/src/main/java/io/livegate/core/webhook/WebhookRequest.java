package io.livegate.core.webhook;

import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * One HTTP request to the webhook receiver: its headers and its raw body bytes, which the signature
 * is checked over. Header names are matched without regard to case, as HTTP says.
 */
public final class WebhookRequest {
  private final Map<String, String> headers = new TreeMap<>();
  private final byte[] body;

  public WebhookRequest(Map<String, String> headers, byte[] body) {
    headers.forEach(
        (name, value) -> {
          if (name != null && value != null) {
            this.headers.put(name.toLowerCase(Locale.ROOT), value);
          }
        });
    this.body = body == null ? new byte[0] : body;
  }

  public Optional<String> header(String name) {
    return Optional.ofNullable(headers.get(name.toLowerCase(Locale.ROOT)));
  }

  public byte[] body() {
    return body;
  }
}
