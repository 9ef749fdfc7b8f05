package io.livegate.github;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.livegate.core.deploy.CommitStatusPublisher.State;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PublicKey;
import java.security.Signature;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * livegate as a GitHub App against a stand-in for GitHub that checks what GitHub checks: the JWT's
 * RS256 signature with the App's public key, its {@code iss}, and {@code iat}/{@code exp} against
 * the stand-in's clock; installation tokens answered in the documented shape and refused once
 * expired. The App's key is made per test run and written as GitHub downloads it (PKCS#1 PEM).
 */
class GitHubAppTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String APP_ID = "Iv23liTestClientId";
  private static final long INSTALLATION = 4567;
  private static final String SHA = "0123456789abcdef0123456789abcdef01234567";
  private static final KeyPair APP_KEY = rsaKeyPair();

  private final MutableClock clock = new MutableClock(Instant.parse("2026-11-27T10:00:00Z"));
  private GitHubStandIn github;

  @BeforeEach
  void start() throws IOException {
    github = new GitHubStandIn(APP_KEY.getPublic(), clock);
  }

  @AfterEach
  void stop() {
    github.server.stop(0);
  }

  @Test
  void aStatusIsPostedWithAnInstallationTokenMintedFromTheAppsSignedJwt() {
    InstallationTokens tokens = tokens(pkcs1Pem(APP_KEY));

    new GitHubStatuses(client(tokens))
        .publish("acme/live", SHA, "livegate/deploy", State.SUCCESS, "deployed", "");

    assertThat(github.tokenRequests).hasSize(1);
    JsonNode request = github.tokenRequests.get(0);
    assertThat(request.path("repositories").toString()).isEqualTo("[\"live\"]");
    assertThat(JSON.convertValue(request.path("permissions"), Map.class))
        .isEqualTo(
            Map.of(
                "contents", "read",
                "checks", "write",
                "pull_requests", "write",
                "issues", "write"));
    assertThat(github.statusTokens).containsExactly("ghs_minted1");
  }

  @Test
  void aTokenIsKeptUntilFiveMinutesBeforeItExpiresAndThenMintedAgain() {
    InstallationTokens tokens = tokens(pkcs1Pem(APP_KEY));
    GitHubStatuses statuses = new GitHubStatuses(client(tokens));

    statuses.publish("acme/live", SHA, "livegate/deploy", State.PENDING, "deploying", "");
    clock.advance(Duration.ofMinutes(54));
    statuses.publish("acme/live", SHA, "livegate/deploy", State.PENDING, "deploying", "");
    assertThat(github.tokenRequests).hasSize(1);

    clock.advance(Duration.ofMinutes(2));
    statuses.publish("acme/live", SHA, "livegate/deploy", State.SUCCESS, "deployed", "");

    assertThat(github.tokenRequests).hasSize(2);
    assertThat(github.statusTokens).containsExactly("ghs_minted1", "ghs_minted1", "ghs_minted2");
  }

  @Test
  void aKeyInPkcs8FormWorksAsWellAsGitHubsPkcs1() {
    String pkcs8 =
        "-----BEGIN PRIVATE KEY-----\n"
            + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII))
                .encodeToString(APP_KEY.getPrivate().getEncoded())
            + "\n-----END PRIVATE KEY-----\n";

    assertThat(tokens(pkcs8).get()).isEqualTo("ghs_minted1");
  }

  @Test
  void aKeyThatIsNotTheAppsIsRefusedWithGitHubsMessage() {
    InstallationTokens tokens = tokens(pkcs1Pem(rsaKeyPair()));

    assertThatThrownBy(tokens::get)
        .isInstanceOf(GitHubException.class)
        .hasMessageContaining("/app/installations/4567/access_tokens answered 401")
        .hasMessageContaining("A JSON web token could not be decoded")
        .satisfies(e -> assertThat(((GitHubException) e).status()).isEqualTo(401));
    assertThat(github.tokenRequests).isEmpty();
  }

  @Test
  void aJwtSignedByAClockTenMinutesBehindIsRefusedAsExpired() {
    GitHubApp app = GitHubApp.of(APP_ID, INSTALLATION, pkcs1Pem(APP_KEY), "the test key");
    Clock behind = Clock.offset(clock, Duration.ofMinutes(-10));
    GitHubClient appClient = stubbedClient(() -> app.jwt(behind.instant()));

    assertThatThrownBy(() -> new InstallationTokens(app, appClient, Optional.empty(), clock).get())
        .isInstanceOf(GitHubException.class)
        .hasMessageContaining("'Expiration time' claim ('exp') must be a numeric value");
  }

  @Test
  void aFileWithoutAPrivateKeyIsAnErrorNamingTheFile() {
    assertThatThrownBy(
            () ->
                GitHubApp.of(
                    APP_ID, INSTALLATION, "ghp_a-token-by-mistake", "/etc/livegate/app-key.pem"))
        .isInstanceOf(GitHubApp.InvalidGitHubApp.class)
        .hasMessageStartingWith("/etc/livegate/app-key.pem holds no PEM private key");
  }

  @Test
  void aTruncatedKeyIsAnErrorNamingWhereItCameFrom() {
    String pem = pkcs1Pem(APP_KEY);
    String truncated = pem.substring(0, 300) + "\n-----END RSA PRIVATE KEY-----\n";

    assertThatThrownBy(() -> GitHubApp.of(APP_ID, INSTALLATION, truncated, "secret livegate/app"))
        .isInstanceOf(GitHubApp.InvalidGitHubApp.class)
        .hasMessageStartingWith(
            "secret livegate/app holds a PEM block that is not an RSA private key");
  }

  @Test
  void anAppIdOrInstallationThatCannotBeGitHubsIsRefused() {
    String pem = pkcs1Pem(APP_KEY);
    assertThatThrownBy(() -> GitHubApp.of("my app", INSTALLATION, pem, "key"))
        .isInstanceOf(GitHubApp.InvalidGitHubApp.class)
        .hasMessageContaining("not 'my app'");
    assertThatThrownBy(() -> GitHubApp.of("12345", 0, pem, "key"))
        .isInstanceOf(GitHubApp.InvalidGitHubApp.class)
        .hasMessageContaining("positive number, not 0");
  }

  private InstallationTokens tokens(String pem) {
    GitHubApp app = GitHubApp.of(APP_ID, INSTALLATION, pem, "the test key");
    return new InstallationTokens(
        app, stubbedClient(() -> app.jwt(clock.instant())), Optional.of("acme/live"), clock);
  }

  private GitHubClient client(InstallationTokens tokens) {
    return stubbedClient(tokens);
  }

  private GitHubClient stubbedClient(java.util.function.Supplier<String> token) {
    return new GitHubClient(
        github.baseUrl(),
        token,
        HttpClient.newHttpClient(),
        new GitHubClient.Retries(1, Duration.ZERO, Duration.ZERO, Duration.ZERO),
        duration -> {},
        clock,
        () -> 0.0);
  }

  /**
   * GitHub's two endpoints this flow touches. Answers use GitHub's documented bodies: the
   * installation token ({@code token}, {@code expires_at}, {@code permissions}, {@code
   * repository_selection}, {@code repositories}) and its 401 messages.
   */
  private static final class GitHubStandIn {
    final HttpServer server;
    final List<JsonNode> tokenRequests = new ArrayList<>();
    final List<String> statusTokens = new ArrayList<>();
    private final Map<String, Instant> issued = new HashMap<>();
    private final PublicKey appKey;
    private final Clock clock;

    GitHubStandIn(PublicKey appKey, Clock clock) throws IOException {
      this.appKey = appKey;
      this.clock = clock;
      server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
      server.createContext("/app/installations/", this::accessTokens);
      server.createContext("/repos/acme/live/statuses/", this::status);
      server.start();
    }

    URI baseUrl() {
      return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
    }

    private synchronized void accessTokens(HttpExchange exchange) throws IOException {
      Optional<String> refusal = refusal(bearer(exchange));
      if (refusal.isPresent()) {
        answer(exchange, 401, message(refusal.get()));
        return;
      }
      if (!exchange
          .getRequestURI()
          .getPath()
          .equals("/app/installations/" + INSTALLATION + "/access_tokens")) {
        answer(exchange, 404, message("Not Found"));
        return;
      }
      JsonNode request = JSON.readTree(exchange.getRequestBody());
      tokenRequests.add(request);
      String token = "ghs_minted" + tokenRequests.size();
      Instant expiresAt = clock.instant().plus(Duration.ofHours(1));
      issued.put(token, expiresAt);
      var body = JSON.createObjectNode();
      body.put("token", token).put("expires_at", expiresAt.toString());
      body.set("permissions", request.path("permissions"));
      body.put("repository_selection", "selected");
      var repositories = body.putArray("repositories");
      request
          .path("repositories")
          .forEach(
              name ->
                  repositories
                      .addObject()
                      .put("id", 1296269)
                      .put("name", name.asText())
                      .put("full_name", "acme/" + name.asText())
                      .put("private", true));
      answer(exchange, 201, body.toString());
    }

    private synchronized void status(HttpExchange exchange) throws IOException {
      String token = bearer(exchange);
      Instant expiresAt = issued.get(token);
      if (expiresAt == null || !clock.instant().isBefore(expiresAt)) {
        answer(exchange, 401, message("Bad credentials"));
        return;
      }
      statusTokens.add(token);
      exchange.getRequestBody().readAllBytes();
      answer(exchange, 201, "{\"state\":\"success\"}");
    }

    /** Why GitHub would refuse this JWT; empty when it is the App's and current. */
    private Optional<String> refusal(String jwt) {
      String[] parts = jwt.split("\\.");
      if (parts.length != 3) {
        return Optional.of("A JSON web token could not be decoded");
      }
      try {
        Signature signature = Signature.getInstance("SHA256withRSA");
        signature.initVerify(appKey);
        signature.update((parts[0] + "." + parts[1]).getBytes(StandardCharsets.US_ASCII));
        if (!signature.verify(Base64.getUrlDecoder().decode(parts[2]))) {
          return Optional.of("A JSON web token could not be decoded");
        }
        JsonNode header = JSON.readTree(Base64.getUrlDecoder().decode(parts[0]));
        JsonNode claims = JSON.readTree(Base64.getUrlDecoder().decode(parts[1]));
        if (!"RS256".equals(header.path("alg").asText())
            || !APP_ID.equals(claims.path("iss").asText())) {
          return Optional.of("A JSON web token could not be decoded");
        }
        long now = clock.instant().getEpochSecond();
        long iat = claims.path("iat").asLong();
        long exp = claims.path("exp").asLong();
        if (iat > now + 60 || exp > now + 600) {
          return Optional.of("'Expiration time' claim ('exp') is too far in the future");
        }
        if (exp <= now) {
          return Optional.of(
              "'Expiration time' claim ('exp') must be a numeric value representing the future"
                  + " time at which the assertion expires");
        }
        return Optional.empty();
      } catch (GeneralSecurityException | IOException | IllegalArgumentException e) {
        return Optional.of("A JSON web token could not be decoded");
      }
    }

    private static String bearer(HttpExchange exchange) {
      String authorization = exchange.getRequestHeaders().getFirst("Authorization");
      return authorization != null && authorization.startsWith("Bearer ")
          ? authorization.substring("Bearer ".length())
          : "";
    }

    private static String message(String message) {
      return JSON.createObjectNode()
          .put("message", message)
          .put("documentation_url", "https://docs.github.com/rest")
          .toString();
    }

    private static void answer(HttpExchange exchange, int status, String body) throws IOException {
      byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
      exchange.getResponseHeaders().set("Content-Type", "application/json; charset=utf-8");
      exchange.sendResponseHeaders(status, bytes.length);
      exchange.getResponseBody().write(bytes);
      exchange.close();
    }
  }

  private static final class MutableClock extends Clock {
    private Instant now;

    MutableClock(Instant now) {
      this.now = now;
    }

    synchronized void advance(Duration duration) {
      now = now.plus(duration);
    }

    @Override
    public synchronized Instant instant() {
      return now;
    }

    @Override
    public ZoneId getZone() {
      return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
      throw new UnsupportedOperationException("the test clock is UTC");
    }
  }

  private static KeyPair rsaKeyPair() {
    try {
      KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
      generator.initialize(2048);
      return generator.generateKeyPair();
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
  }

  /**
   * The key as GitHub downloads it: PKCS#1's RSAPrivateKey, which the JDK's PKCS#8 encoding holds
   * as its last element, an OCTET STRING after the version and the algorithm.
   */
  private static String pkcs1Pem(KeyPair pair) {
    byte[] pkcs8 = pair.getPrivate().getEncoded();
    int offset = headerLength(pkcs8, 0);
    offset += headerLength(pkcs8, offset) + contentLength(pkcs8, offset); // version
    offset += headerLength(pkcs8, offset) + contentLength(pkcs8, offset); // algorithm
    if (pkcs8[offset] != 0x04) {
      throw new UncheckedIOException(new IOException("no OCTET STRING in the PKCS#8 key"));
    }
    int start = offset + headerLength(pkcs8, offset);
    byte[] pkcs1 = Arrays.copyOfRange(pkcs8, start, start + contentLength(pkcs8, offset));
    return "-----BEGIN RSA PRIVATE KEY-----\n"
        + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII)).encodeToString(pkcs1)
        + "\n-----END RSA PRIVATE KEY-----\n";
  }

  private static int headerLength(byte[] der, int offset) {
    int first = der[offset + 1] & 0xff;
    return first < 0x80 ? 2 : 2 + (first & 0x7f);
  }

  private static int contentLength(byte[] der, int offset) {
    int first = der[offset + 1] & 0xff;
    if (first < 0x80) {
      return first;
    }
    int length = 0;
    for (int i = 0; i < (first & 0x7f); i++) {
      length = (length << 8) | (der[offset + 2 + i] & 0xff);
    }
    return length;
  }
}
