package io.livegate.core.deploy;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * Step Functions execution names: deterministic, so a retried start with the same name is a no-op
 * downstream; unique per deployment, unit and phase; at most 80 characters of {@code
 * [A-Za-z0-9_-]}. The readable part is the end of the unit path; a hash of the full path keeps long
 * or odd paths unique.
 */
public final class ExecutionNames {
  public static final int MAX_LENGTH = 80;
  private static final int HASH_LENGTH = 12;

  private ExecutionNames() {}

  public static String of(long deploymentId, String unit, boolean rollback) {
    String prefix = "d" + deploymentId + (rollback ? "-rb-" : "-");
    String hash = "-" + sha256(unit + (rollback ? "\u0000rollback" : "")).substring(0, HASH_LENGTH);
    String readable =
        unit.replaceAll("[^A-Za-z0-9_-]+", "-").replaceAll("-{2,}", "-").replaceAll("^-|-$", "");
    int room = MAX_LENGTH - prefix.length() - hash.length();
    if (readable.length() > room) {
      readable = readable.substring(readable.length() - room).replaceAll("^[-_]+", "");
    }
    return prefix + (readable.isEmpty() ? "unit" : readable) + hash;
  }

  private static String sha256(String text) {
    try {
      return HexFormat.of()
          .formatHex(
              MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every JVM has SHA-256", e);
    }
  }
}
