package io.livegate.aws;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.livegate.core.Jackson;
import io.livegate.core.LivegateException;
import io.livegate.core.Printable;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HexFormat;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.sts.StsClient;
import software.amazon.awssdk.services.sts.model.Credentials;

/**
 * Account-role sessions served to terraform and terragrunt the way ECS serves a task role's: an
 * HTTP endpoint on the loopback interface that the AWS SDKs' container-credentials provider reads
 * ({@value #FULL_URI} and {@value #AUTHORIZATION_TOKEN}), and asks again before the session it
 * holds expires. Each answer is the role's current session, assumed again with the task role once
 * less than a third of it (at most 15 minutes) is left, so an apply that runs longer than one
 * session (RDS, EKS, CloudFront applies take hours) keeps valid credentials, while the task role's
 * own credentials stay in this process: the endpoint only ever answers with the account role's
 * session.
 *
 * <p>Each role has its own path and the endpoint a random bearer token, so only a process given the
 * variables can read a session, and it reads only the one its command runs with. Sessions last
 * {@code duration} (STS's {@code DurationSeconds}: at least 15 minutes, at most the role's maximum
 * session duration, 1 hour unless the role allows up to 12).
 */
public final class RoleSessions implements AutoCloseable {
  /** The SDKs' variable for a credentials endpoint given by its full URI (loopback over HTTP). */
  public static final String FULL_URI = "AWS_CONTAINER_CREDENTIALS_FULL_URI";

  /** The SDKs' variable for the Authorization header they send to that endpoint. */
  public static final String AUTHORIZATION_TOKEN = "AWS_CONTAINER_AUTHORIZATION_TOKEN";

  private static final ObjectMapper JSON = Jackson.MAPPER;

  private record Session(Credentials credentials, Instant expires) {}

  private final StsClient sts;
  private final String sessionName;
  private final Duration duration;
  private final Duration refreshBefore;
  private final Clock clock;
  private final String token;
  private final Map<String, String> roleByPath = new ConcurrentHashMap<>();
  private final Map<String, Session> sessions = new ConcurrentHashMap<>();
  private HttpServer server;

  /**
   * @param sessionName how the sessions are named in CloudTrail
   * @param duration each session's length
   * @param clock when a session was assumed and when it runs out
   */
  public RoleSessions(StsClient sts, String sessionName, Duration duration, Clock clock) {
    this.sts = sts;
    this.sessionName = sessionName;
    this.duration = duration;
    // The SDKs refresh 5 to 15 minutes before the expiry they are given; a fresh session then
    // must not expire sooner than that, nor be handed out with less than a third of it left.
    this.refreshBefore =
        duration.dividedBy(3).compareTo(Duration.ofMinutes(15)) < 0
            ? duration.dividedBy(3)
            : Duration.ofMinutes(15);
    this.clock = clock;
    byte[] random = new byte[32];
    new SecureRandom().nextBytes(random);
    this.token = HexFormat.of().formatHex(random);
  }

  /**
   * The variables that give a command {@code role}'s sessions: the endpoint's URI for the role and
   * its token. The role is assumed now, so a role that cannot be assumed fails before the command
   * starts.
   */
  public synchronized Map<String, String> environmentFor(String role) {
    session(role);
    String path = "/" + HexFormat.of().formatHex(sha256(role)).substring(0, 16);
    roleByPath.put(path, role);
    return Map.of(
        FULL_URI,
        "http://127.0.0.1:" + server().getAddress().getPort() + path,
        AUTHORIZATION_TOKEN,
        token);
  }

  /** The role's current session, assumed again when less than {@link #refreshBefore} is left. */
  private Session session(String role) {
    Instant now = clock.instant();
    return sessions.compute(
        role,
        (name, current) ->
            current != null && current.expires().minus(refreshBefore).isAfter(now)
                ? current
                : assume(name, now));
  }

  private Session assume(String role, Instant now) {
    Credentials credentials;
    try {
      credentials =
          sts.assumeRole(
                  request ->
                      request
                          .roleArn(role)
                          .roleSessionName(sessionName)
                          .durationSeconds((int) duration.toSeconds()))
              .credentials();
    } catch (SdkException e) {
      throw new LivegateException(
          "cannot assume "
              + role
              + " for "
              + duration
              + " (at most the role's maximum session duration): "
              + e.getMessage(),
          e);
    }
    // The session's end as this process's clock sees it: STS's own Expiration is the same instant
    // on a synchronised clock, and this way a session's age is measured on one clock only.
    return new Session(credentials, now.plus(duration));
  }

  private synchronized HttpServer server() {
    if (server == null) {
      try {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
      } catch (IOException e) {
        throw new UncheckedIOException("cannot open the role-session endpoint", e);
      }
      server.createContext("/", this::answer);
      server.start();
    }
    return server;
  }

  private void answer(HttpExchange exchange) throws IOException {
    try (exchange) {
      String role = roleByPath.get(exchange.getRequestURI().getPath());
      if (!MessageDigest.isEqual(
          token.getBytes(StandardCharsets.UTF_8),
          String.valueOf(exchange.getRequestHeaders().getFirst("Authorization"))
              .getBytes(StandardCharsets.UTF_8))) {
        exchange.sendResponseHeaders(403, -1);
        return;
      }
      if (role == null || !exchange.getRequestMethod().equals("GET")) {
        exchange.sendResponseHeaders(404, -1);
        return;
      }
      byte[] body;
      int status;
      try {
        Session session = session(role);
        Credentials credentials = session.credentials();
        ObjectNode answer = JSON.createObjectNode();
        answer.put("AccessKeyId", credentials.accessKeyId());
        answer.put("SecretAccessKey", credentials.secretAccessKey());
        answer.put("Token", credentials.sessionToken());
        answer.put("Expiration", session.expires().toString());
        body = answer.toString().getBytes(StandardCharsets.UTF_8);
        status = 200;
      } catch (LivegateException e) {
        // The SDK retries and then fails the terraform call; the task's log says why.
        System.err.println(Printable.escape("role-session endpoint: " + e.getMessage()));
        body = "{\"message\":\"cannot renew the session\"}".getBytes(StandardCharsets.UTF_8);
        status = 500;
      }
      exchange.getResponseHeaders().set("Content-Type", "application/json");
      exchange.sendResponseHeaders(status, body.length);
      exchange.getResponseBody().write(body);
    }
  }

  private static byte[] sha256(String text) {
    try {
      return MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
    } catch (java.security.NoSuchAlgorithmException e) {
      throw new IllegalStateException("the JDK has no SHA-256", e);
    }
  }

  @Override
  public synchronized void close() {
    if (server != null) {
      server.stop(0);
      server = null;
    }
  }
}
