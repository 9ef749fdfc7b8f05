package io.livegate.github;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
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
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * A stand-in for GitHub that checks what GitHub checks of a GitHub App: the JWT's RS256 signature
 * with the App's public key, its {@code iss}, and {@code iat}/{@code exp} against the stand-in's
 * clock; installation tokens minted only for the installation's repositories and within its granted
 * permissions (422 otherwise, with GitHub's messages), and refused once expired or for an endpoint
 * outside their permissions (403). Answers use GitHub's documented bodies: {@code GET /app}, {@code
 * GET /app/installations/{id}}, the installation token, a repository, its hooks, a branch with its
 * protection, and commit statuses.
 */
final class GitHubAppStandIn implements AutoCloseable {
  static final String APP_ID = "Iv23liTestClientId";
  static final long APP_NUMBER = 1234;
  static final long INSTALLATION = 4567;
  private static final ObjectMapper JSON = new ObjectMapper();

  private record Issued(Instant expiresAt, JsonNode permissions) {}

  final HttpServer server;
  final List<JsonNode> tokenRequests = new ArrayList<>();
  final List<String> statusTokens = new ArrayList<>();

  /** What the installation grants; tests change it. */
  final Map<String, String> granted =
      new HashMap<>(
          Map.of(
              "contents", "read",
              "checks", "write",
              "pull_requests", "write",
              "issues", "write",
              "metadata", "read"));

  /** The repositories the installation may reach, by name. */
  final List<String> repositories = new ArrayList<>(List.of("live"));

  /** The trunk's branch as {@code GET /repos/acme/live/branches/main} answers it. */
  ObjectNode branch = protectedBranch(APP_NUMBER);

  /** The repository's webhooks as {@code GET /repos/acme/live/hooks} answers them. */
  String hooks = "[]";

  private final Map<String, Issued> issued = new HashMap<>();
  private final PublicKey appKey;
  private final Clock clock;

  GitHubAppStandIn(PublicKey appKey, Clock clock) throws IOException {
    this.appKey = appKey;
    this.clock = clock;
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext("/app", this::app);
    server.createContext("/repos/acme/live", this::repository);
    server.start();
  }

  URI baseUrl() {
    return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
  }

  /** A client of the stand-in sending {@code token}, with one attempt and no waits. */
  GitHubClient client(Supplier<String> token) {
    return new GitHubClient(
        baseUrl(),
        token,
        HttpClient.newHttpClient(),
        new GitHubClient.Retries(1, Duration.ZERO, Duration.ZERO, Duration.ZERO),
        duration -> {},
        clock,
        () -> 0.0);
  }

  @Override
  public void close() {
    server.stop(0);
  }

  /** A branch whose protection requires {@code livegate/merge-lock} from App {@code appId}. */
  static ObjectNode protectedBranch(long appId) {
    ObjectNode branch = JSON.createObjectNode().put("name", "main").put("protected", true);
    ObjectNode required =
        branch.putObject("protection").put("enabled", true).putObject("required_status_checks");
    required.put("enforcement_level", "non_admins");
    required.putArray("contexts").add("livegate/merge-lock");
    required
        .putArray("checks")
        .addObject()
        .put("context", "livegate/merge-lock")
        .put("app_id", appId);
    return branch;
  }

  private synchronized void app(HttpExchange exchange) throws IOException {
    Optional<String> refusal = refusal(bearer(exchange));
    if (refusal.isPresent()) {
      answer(exchange, 401, message(refusal.get()));
      return;
    }
    String path = exchange.getRequestURI().getPath();
    String installation = "/app/installations/" + INSTALLATION;
    if (path.equals("/app") && exchange.getRequestMethod().equals("GET")) {
      ObjectNode app = JSON.createObjectNode();
      app.put("id", APP_NUMBER)
          .put("slug", "livegate-acme")
          .put("client_id", APP_ID)
          .put("name", "livegate acme");
      app.putPOJO("permissions", granted);
      answer(exchange, 200, app.toString());
    } else if (path.equals(installation) && exchange.getRequestMethod().equals("GET")) {
      ObjectNode body = JSON.createObjectNode().put("id", INSTALLATION).put("app_id", APP_NUMBER);
      body.putObject("account").put("login", "acme").put("type", "Organization");
      body.put("repository_selection", "selected");
      body.putPOJO("permissions", granted);
      answer(exchange, 200, body.toString());
    } else if (path.equals(installation + "/access_tokens")) {
      accessTokens(exchange);
    } else {
      answer(exchange, 404, message("Not Found"));
    }
  }

  private void accessTokens(HttpExchange exchange) throws IOException {
    JsonNode request = JSON.readTree(exchange.getRequestBody());
    for (JsonNode name : request.path("repositories")) {
      if (!repositories.contains(name.asText())) {
        answer(
            exchange,
            422,
            message(
                "There is at least one repository that does not exist or is not accessible to the"
                    + " parent installation."));
        return;
      }
    }
    for (Iterator<Map.Entry<String, JsonNode>> asked = request.path("permissions").fields();
        asked.hasNext(); ) {
      Map.Entry<String, JsonNode> permission = asked.next();
      String has = granted.getOrDefault(permission.getKey(), "none");
      if (has.equals("none")
          || (permission.getValue().asText().equals("write") && !has.equals("write"))) {
        answer(
            exchange,
            422,
            message("The permissions requested are not granted to this installation."));
        return;
      }
    }
    tokenRequests.add(request);
    String token = "ghs_minted" + tokenRequests.size();
    Instant expiresAt = clock.instant().plus(Duration.ofHours(1));
    issued.put(token, new Issued(expiresAt, request.path("permissions")));
    ObjectNode body = JSON.createObjectNode();
    body.put("token", token).put("expires_at", expiresAt.toString());
    body.set("permissions", request.path("permissions"));
    body.put("repository_selection", "selected");
    var names = body.putArray("repositories");
    request
        .path("repositories")
        .forEach(
            name ->
                names
                    .addObject()
                    .put("id", 1296269)
                    .put("name", name.asText())
                    .put("full_name", "acme/" + name.asText())
                    .put("private", true));
    answer(exchange, 201, body.toString());
  }

  private synchronized void repository(HttpExchange exchange) throws IOException {
    String token = bearer(exchange);
    Issued found = issued.get(token);
    if (found == null || !clock.instant().isBefore(found.expiresAt())) {
      answer(exchange, 401, message("Bad credentials"));
      return;
    }
    String path = exchange.getRequestURI().getPath();
    exchange.getRequestBody().readAllBytes();
    if (path.startsWith("/repos/acme/live/statuses/")) {
      statusTokens.add(token);
      answer(exchange, 201, "{\"state\":\"success\"}");
    } else if (path.equals("/repos/acme/live")) {
      answer(
          exchange,
          200,
          "{\"id\": 1296269, \"name\": \"live\", \"full_name\": \"acme/live\", \"private\": true}");
    } else if (path.equals("/repos/acme/live/hooks")) {
      if (found.permissions().path("repository_hooks").isMissingNode()) {
        answer(exchange, 403, message("Resource not accessible by integration"));
      } else {
        answer(exchange, 200, hooks);
      }
    } else if (path.equals("/repos/acme/live/branches/main")) {
      answer(exchange, 200, branch.toString());
    } else {
      answer(exchange, 404, message("Not Found"));
    }
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

  static KeyPair rsaKeyPair() {
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
  static String pkcs1Pem(KeyPair pair) {
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
