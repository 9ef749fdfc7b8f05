package io.livegate.core.webhook;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.regex.Pattern;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * GitHub's {@code X-Hub-Signature-256}: {@code sha256=} and the hex HMAC-SHA256 of the raw body
 * under the webhook secret. Compared in constant time.
 */
public final class WebhookSignature {
  public static final String HEADER = "X-Hub-Signature-256";
  private static final String PREFIX = "sha256=";
  private static final Pattern FORMAT = Pattern.compile("sha256=[0-9a-fA-F]{64}");

  private WebhookSignature() {}

  /** Whether {@code header} is a well-formed signature of {@code body} under {@code secret}. */
  public static boolean valid(byte[] secret, byte[] body, String header) {
    if (!wellFormed(header) || secret.length == 0) {
      return false;
    }
    byte[] claimed = HexFormat.of().parseHex(header.substring(PREFIX.length()));
    return MessageDigest.isEqual(hmac(secret, body), claimed);
  }

  /**
   * Whether {@code header} has the form of a signature: when it has not, no body can match it, so a
   * server can refuse the request before reading the body.
   */
  public static boolean wellFormed(String header) {
    return header != null && FORMAT.matcher(header).matches();
  }

  /** The header value GitHub sends for {@code body}: what tests and the fuzzer sign with. */
  public static String sign(byte[] secret, byte[] body) {
    return PREFIX + HexFormat.of().formatHex(hmac(secret, body));
  }

  public static byte[] secret(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }

  private static byte[] hmac(byte[] secret, byte[] body) {
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(secret, "HmacSHA256"));
      return mac.doFinal(body);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("HmacSHA256 is part of every Java runtime", e);
    }
  }
}
