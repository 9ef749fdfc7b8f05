package io.livegate.scan.hcl;

import static io.livegate.scan.hcl.StandardFunctions.define;
import static io.livegate.scan.hcl.StringFunctions.str;

import io.livegate.scan.hcl.StandardFunctions.Definition;
import io.livegate.scan.hcl.Values.ValueError;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import java.util.HexFormat;
import java.util.Map;
import java.util.UUID;

/** Terraform's hash functions over a string's UTF-8 bytes, and the name-based uuidv5. */
final class CryptoFunctions {
  private static final Map<String, String> NAMESPACES =
      Map.of(
          "dns", "6ba7b810-9dad-11d1-80b4-00c04fd430c8",
          "url", "6ba7b811-9dad-11d1-80b4-00c04fd430c8",
          "oid", "6ba7b812-9dad-11d1-80b4-00c04fd430c8",
          "x500", "6ba7b814-9dad-11d1-80b4-00c04fd430c8");

  private CryptoFunctions() {}

  static void register(Map<String, Definition> into) {
    define(into, "md5", 1, args -> hex("MD5", str(args, 0)));
    define(into, "sha1", 1, args -> hex("SHA-1", str(args, 0)));
    define(into, "sha256", 1, args -> hex("SHA-256", str(args, 0)));
    define(into, "sha512", 1, args -> hex("SHA-512", str(args, 0)));
    define(into, "base64sha256", 1, args -> base64("SHA-256", str(args, 0)));
    define(into, "base64sha512", 1, args -> base64("SHA-512", str(args, 0)));
    define(into, "uuidv5", 2, args -> uuidv5(str(args, 0), str(args, 1)));
  }

  static byte[] digest(String algorithm, byte[] bytes) {
    try {
      return MessageDigest.getInstance(algorithm).digest(bytes);
    } catch (NoSuchAlgorithmException impossible) {
      throw new IllegalStateException("every JVM has " + algorithm, impossible);
    }
  }

  static String hex(String algorithm, String text) {
    return HexFormat.of().formatHex(digest(algorithm, text.getBytes(StandardCharsets.UTF_8)));
  }

  static String base64(String algorithm, String text) {
    return Base64.getEncoder()
        .encodeToString(digest(algorithm, text.getBytes(StandardCharsets.UTF_8)));
  }

  /** RFC 4122 version 5: SHA-1 of the namespace's bytes and the name. */
  private static String uuidv5(String namespace, String name) {
    String id = NAMESPACES.getOrDefault(namespace, namespace);
    UUID space;
    try {
      space = UUID.fromString(id);
    } catch (IllegalArgumentException e) {
      throw new ValueError("namespace must be dns, url, oid, x500 or a UUID, found " + namespace);
    }
    byte[] nameBytes = name.getBytes(StandardCharsets.UTF_8);
    ByteBuffer input = ByteBuffer.allocate(16 + nameBytes.length);
    input.putLong(space.getMostSignificantBits()).putLong(space.getLeastSignificantBits());
    input.put(nameBytes);
    byte[] hash = digest("SHA-1", input.array());
    hash[6] = (byte) ((hash[6] & 0x0f) | 0x50);
    hash[8] = (byte) ((hash[8] & 0x3f) | 0x80);
    ByteBuffer bytes = ByteBuffer.wrap(hash, 0, 16);
    return new UUID(bytes.getLong(), bytes.getLong()).toString();
  }
}
