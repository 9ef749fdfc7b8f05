package io.livegate.github;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.livegate.core.Jackson;
import io.livegate.core.LivegateException;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.Signature;
import java.security.interfaces.RSAPrivateKey;
import java.security.spec.PKCS8EncodedKeySpec;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A GitHub App as livegate authenticates with it: the App's id (its client ID or numeric App ID),
 * the installation on the live repository's owner, and the App's private key. It signs the JSON Web
 * Tokens that only the installation-token endpoint accepts ({@link InstallationTokens} turns them
 * into the tokens every other call uses).
 *
 * <p>The key is the PEM file GitHub hands out ({@code BEGIN RSA PRIVATE KEY}, PKCS#1) or the same
 * key converted to PKCS#8 ({@code BEGIN PRIVATE KEY}). The JDK reads only PKCS#8, so a PKCS#1 key
 * is wrapped in PKCS#8's envelope here rather than pulling in a crypto library.
 */
public final class GitHubApp {
  /**
   * GitHub's docs: set {@code iat} 60 s in the past against clock drift, and {@code exp} no more
   * than 10 minutes into the future; 9 minutes leaves room for a clock a little ahead of GitHub's.
   */
  static final Duration BACKDATE = Duration.ofSeconds(60);

  static final Duration LIFETIME = Duration.ofMinutes(9);

  private static final ObjectMapper JSON = Jackson.MAPPER;
  private static final Pattern PEM =
      Pattern.compile(
          "-----BEGIN (RSA )?PRIVATE KEY-----([A-Za-z0-9+/=\\s]+)-----END \\1?PRIVATE KEY-----");
  private static final Pattern APP_ID = Pattern.compile("[0-9]+|Iv[0-9A-Za-z.]+");

  /** rsaEncryption's algorithm identifier (OID 1.2.840.113549.1.1.1, NULL parameters), DER. */
  private static final byte[] RSA_ALGORITHM = {
    0x30,
    0x0d,
    0x06,
    0x09,
    0x2a,
    (byte) 0x86,
    0x48,
    (byte) 0x86,
    (byte) 0xf7,
    0x0d,
    0x01,
    0x01,
    0x01,
    0x05,
    0x00
  };

  private final String appId;
  private final long installationId;
  private final PrivateKey key;

  private GitHubApp(String appId, long installationId, PrivateKey key) {
    this.appId = appId;
    this.installationId = installationId;
    this.key = key;
  }

  /**
   * @param appId the App's client ID ({@code Iv…}) or numeric App ID, from its settings page
   * @param installationId the number at the end of the installation's settings URL
   * @param pem the App's private key as GitHub downloads it
   * @param source where the key came from (a file, a secret), named in every error
   */
  public static GitHubApp of(String appId, long installationId, String pem, String source) {
    if (appId == null || !APP_ID.matcher(appId.strip()).matches()) {
      throw new InvalidGitHubApp(
          "a GitHub App's id is its numeric App ID or its client ID (Iv…), not '" + appId + "'");
    }
    if (installationId <= 0) {
      throw new InvalidGitHubApp(
          "a GitHub App's installation id is a positive number, not " + installationId);
    }
    return new GitHubApp(appId.strip(), installationId, privateKey(pem, source));
  }

  /**
   * The tokens that stored GitHub credentials give: a GitHub App's, when {@code credentials} is the
   * App's JSON ({@code {"appId": "Iv…", "installationId": 4567, "privateKey": "-----BEGIN RSA
   * PRIVATE KEY-----…"}}), minted and renewed by {@link InstallationTokens}; else {@code
   * credentials} is a token itself and is always the answer.
   *
   * @param source the secret or parameter the credentials came from, named in every error
   */
  public static Supplier<String> tokens(
      String credentials, URI apiBase, Optional<String> repository, String source) {
    String text = credentials.strip();
    if (!text.startsWith("{")) {
      return () -> text;
    }
    JsonNode json;
    try {
      json = JSON.readTree(text);
    } catch (IOException e) {
      throw new InvalidGitHubApp(source + " holds JSON that cannot be read: " + e.getMessage(), e);
    }
    for (String field : List.of("appId", "installationId", "privateKey")) {
      if (!json.hasNonNull(field)) {
        throw new InvalidGitHubApp(
            source + " holds a GitHub App's JSON without " + field + " (docs/github-app.md)");
      }
    }
    GitHubApp app =
        of(
            json.get("appId").asText(),
            json.get("installationId").asLong(0),
            json.get("privateKey").asText(),
            source + " (privateKey)");
    return InstallationTokens.create(app, apiBase, repository);
  }

  public long installationId() {
    return installationId;
  }

  /** A JSON Web Token for the App, signed RS256, valid from a minute before {@code now}. */
  public String jwt(Instant now) {
    ObjectNode header = JSON.createObjectNode().put("alg", "RS256").put("typ", "JWT");
    ObjectNode claims =
        JSON.createObjectNode()
            .put("iat", now.minus(BACKDATE).getEpochSecond())
            .put("exp", now.plus(LIFETIME).getEpochSecond())
            .put("iss", appId);
    String signed = base64(header.toString()) + "." + base64(claims.toString());
    try {
      Signature signature = Signature.getInstance("SHA256withRSA");
      signature.initSign(key);
      signature.update(signed.getBytes(StandardCharsets.US_ASCII));
      return signed
          + "."
          + Base64.getUrlEncoder().withoutPadding().encodeToString(signature.sign());
    } catch (GeneralSecurityException e) {
      throw new InvalidGitHubApp("cannot sign a GitHub App token: " + e.getMessage(), e);
    }
  }

  private static String base64(String json) {
    return Base64.getUrlEncoder()
        .withoutPadding()
        .encodeToString(json.getBytes(StandardCharsets.UTF_8));
  }

  private static PrivateKey privateKey(String pem, String source) {
    Matcher matcher = PEM.matcher(pem == null ? "" : pem);
    if (!matcher.find()) {
      throw new InvalidGitHubApp(
          source
              + " holds no PEM private key (-----BEGIN RSA PRIVATE KEY----- as GitHub downloads it,"
              + " or -----BEGIN PRIVATE KEY-----)");
    }
    try {
      byte[] der = Base64.getMimeDecoder().decode(matcher.group(2));
      byte[] pkcs8 = matcher.group(1) == null ? der : pkcs8(der);
      PrivateKey key =
          KeyFactory.getInstance("RSA").generatePrivate(new PKCS8EncodedKeySpec(pkcs8));
      if (((RSAPrivateKey) key).getModulus().bitLength() < 2048) {
        throw new InvalidGitHubApp(source + " holds an RSA key shorter than 2048 bits");
      }
      return key;
    } catch (IllegalArgumentException | GeneralSecurityException e) {
      throw new InvalidGitHubApp(
          source + " holds a PEM block that is not an RSA private key: " + e.getMessage(), e);
    }
  }

  /** PKCS#8's PrivateKeyInfo around a PKCS#1 RSAPrivateKey: version 0, rsaEncryption, the key. */
  private static byte[] pkcs8(byte[] pkcs1) {
    ByteArrayOutputStream body = new ByteArrayOutputStream();
    body.writeBytes(new byte[] {0x02, 0x01, 0x00});
    body.writeBytes(RSA_ALGORITHM);
    body.writeBytes(derHeader(0x04, pkcs1.length));
    body.writeBytes(pkcs1);
    ByteArrayOutputStream info = new ByteArrayOutputStream();
    info.writeBytes(derHeader(0x30, body.size()));
    info.writeBytes(body.toByteArray());
    return info.toByteArray();
  }

  /** A DER tag and length: short form below 128, else the length's bytes after 0x80 | count. */
  private static byte[] derHeader(int tag, int length) {
    if (length < 0x80) {
      return new byte[] {(byte) tag, (byte) length};
    }
    int bytes = (32 - Integer.numberOfLeadingZeros(length) + 7) / 8;
    byte[] header = new byte[2 + bytes];
    header[0] = (byte) tag;
    header[1] = (byte) (0x80 | bytes);
    for (int i = 0; i < bytes; i++) {
      header[2 + i] = (byte) (length >>> (8 * (bytes - 1 - i)));
    }
    return header;
  }

  /** A GitHub App's settings or key that cannot be used, named with where they came from. */
  public static final class InvalidGitHubApp extends LivegateException {
    private static final long serialVersionUID = 1L;

    InvalidGitHubApp(String message) {
      super(message);
    }

    InvalidGitHubApp(String message, Throwable cause) {
      super(message, cause);
    }
  }
}
