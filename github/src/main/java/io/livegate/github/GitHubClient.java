package io.livegate.github;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.livegate.core.Jackson;
import io.livegate.core.LivegateException;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpHeaders;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.DoubleSupplier;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Calls GitHub's REST API with the JDK's HTTP client: no reflection-heavy library, so a Lambda
 * starts fast. Every request carries the token, {@code Accept: application/vnd.github+json} and the
 * API version.
 *
 * <p>Retries, bounded by {@link Retries#attempts()}:
 *
 * <ul>
 *   <li>a connection error or a 5xx answer: exponential backoff with jitter;
 *   <li>a rate limit (403 or 429 with {@code Retry-After}, or with {@code x-ratelimit-remaining: 0}
 *       and {@code x-ratelimit-reset}): the wait GitHub asks for, unless it is longer than {@link
 *       Retries#maxWait()}, in which case the call gives up at once rather than hold a task;
 *   <li>a 429, or a 403 whose message names a rate limit, without those headers: backoff;
 *   <li>any other 4xx: no retry, the request itself is wrong.
 * </ul>
 *
 * A call that fails for good throws {@link GitHubException}; the adapters that must never fail a
 * deployment catch it and log.
 */
public final class GitHubClient {
  public static final URI PUBLIC_API = URI.create("https://api.github.com");
  public static final String API_VERSION = "2022-11-28";
  private static final String USER_AGENT = "livegate";
  private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(10);
  private static final ObjectMapper JSON = Jackson.MAPPER;
  private static final Pattern NEXT_LINK = Pattern.compile("<([^>]+)>\\s*;\\s*rel=\"next\"");
  private static final Pattern REPOSITORY = Pattern.compile("[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+");
  private static final Pattern COMMIT = Pattern.compile("[0-9a-f]{40}|[0-9a-f]{64}");

  /** Waits between attempts; tests pass one that records instead of sleeping. */
  @FunctionalInterface
  public interface Sleeper {
    void sleep(Duration duration) throws InterruptedException;
  }

  /**
   * How hard to try.
   *
   * @param attempts requests per call, the first included
   * @param firstBackoff the wait after the first failure; it doubles after each one
   * @param maxBackoff the longest backoff
   * @param maxWait the longest wait a rate limit may ask for before the call gives up
   */
  public record Retries(
      int attempts, Duration firstBackoff, Duration maxBackoff, Duration maxWait) {
    /** 4 attempts, 1 s doubling to at most 8 s, rate-limit waits of up to 60 s. */
    public static final Retries DEFAULT =
        new Retries(4, Duration.ofSeconds(1), Duration.ofSeconds(8), Duration.ofSeconds(60));

    public Retries {
      if (attempts < 1) {
        throw new LivegateException("GitHub calls need at least one attempt, not " + attempts);
      }
    }
  }

  /** A successful answer. */
  public record Response(int status, String body, HttpHeaders headers) {
    public JsonNode json() {
      try {
        return JSON.readTree(body.isEmpty() ? "null" : body);
      } catch (IOException e) {
        throw new GitHubException(
            "GitHub answered with invalid JSON: " + e.getMessage(), status, e);
      }
    }

    /** The next page of a paginated list, from the {@code Link} header. */
    public Optional<URI> next() {
      return headers
          .firstValue("link")
          .map(NEXT_LINK::matcher)
          .filter(Matcher::find)
          .map(matcher -> URI.create(matcher.group(1)));
    }
  }

  private final URI apiBase;
  private final Supplier<String> token;
  private final HttpClient http;
  private final Retries retries;
  private final Sleeper sleeper;
  private final Clock clock;
  private final DoubleSupplier jitter;

  /**
   * @param apiBase {@link #PUBLIC_API}, a GitHub Enterprise Server's {@code https://host/api/v3},
   *     or a stub
   * @param token asked on every request, so a rotated secret is picked up where the supplier allows
   *     it
   * @param jitter a number in [0, 1] per backoff
   */
  public GitHubClient(
      URI apiBase,
      Supplier<String> token,
      HttpClient http,
      Retries retries,
      Sleeper sleeper,
      Clock clock,
      DoubleSupplier jitter) {
    String base = apiBase.toString();
    this.apiBase = URI.create(base.endsWith("/") ? base.substring(0, base.length() - 1) : base);
    this.token = token;
    this.http = http;
    this.retries = retries;
    this.sleeper = sleeper;
    this.clock = clock;
    this.jitter = jitter;
  }

  /** A client with the default retries, real sleeps and random jitter. */
  public static GitHubClient create(URI apiBase, Supplier<String> token) {
    return new GitHubClient(
        apiBase,
        token,
        HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build(),
        Retries.DEFAULT,
        duration -> Thread.sleep(duration.toMillis()),
        Clock.systemUTC(),
        () -> ThreadLocalRandom.current().nextDouble());
  }

  /** {@code GET} of a path under the API base, e.g. {@code /repos/o/r/issues/1/comments}. */
  public Response get(String path) {
    return send("GET", resolve(path), null);
  }

  /** {@code GET} of a full URL, such as a {@link Response#next()} page. */
  public Response get(URI url) {
    if (!url.toString().startsWith(apiBase.toString() + "/")) {
      throw new GitHubException(
          "refusing to send the token to " + url + ", outside " + apiBase, -1, null);
    }
    return send("GET", url, null);
  }

  public Response post(String path, JsonNode body) {
    return send("POST", resolve(path), body);
  }

  public Response patch(String path, JsonNode body) {
    return send("PATCH", resolve(path), body);
  }

  /**
   * {@code /repos/owner/name}, after checking that {@code repository} is an owner/name pair: the
   * pair comes from webhook payloads and task arguments, and becomes part of a URL path.
   */
  public static String repositoryPath(String repository) {
    if (repository == null || !REPOSITORY.matcher(repository).matches()) {
      throw new LivegateException(
          "a GitHub repository is owner/name of letters, digits, '.', '-' and '_', not '"
              + repository
              + "'");
    }
    return "/repos/" + repository;
  }

  /** {@code commit} itself, after checking that it is a full commit sha. */
  public static String commit(String commit) {
    if (commit == null || !COMMIT.matcher(commit).matches()) {
      throw new LivegateException("a full lower-case commit sha is needed, not '" + commit + "'");
    }
    return commit;
  }

  private URI resolve(String path) {
    return URI.create(apiBase + path);
  }

  private Response send(String method, URI url, JsonNode body) {
    HttpRequest.Builder builder =
        HttpRequest.newBuilder(url)
            .timeout(REQUEST_TIMEOUT)
            .header("Authorization", "Bearer " + token.get())
            .header("Accept", "application/vnd.github+json")
            .header("X-GitHub-Api-Version", API_VERSION)
            .header("User-Agent", USER_AGENT);
    if (body == null) {
      builder.method(method, HttpRequest.BodyPublishers.noBody());
    } else {
      builder
          .header("Content-Type", "application/json")
          .method(
              method, HttpRequest.BodyPublishers.ofString(body.toString(), StandardCharsets.UTF_8));
    }
    HttpRequest request = builder.build();
    String what = method + " " + url.getPath();
    for (int attempt = 1; ; attempt++) {
      Duration wait;
      String failure;
      int status;
      IOException cause = null;
      try {
        HttpResponse<String> response =
            http.send(request, HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
        status = response.statusCode();
        if (status < 300) {
          return new Response(status, response.body(), response.headers());
        }
        failure = what + " answered " + status + ": " + message(response.body());
        Optional<Duration> retry = retryAfter(response, attempt);
        if (retry.isEmpty()) {
          throw new GitHubException(failure, status, null);
        }
        wait = retry.get();
      } catch (IOException e) {
        status = -1;
        failure = what + " failed: " + e;
        cause = e;
        wait = backoff(attempt);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new GitHubException(what + " was interrupted", -1, e);
      }
      if (attempt >= retries.attempts()) {
        throw new GitHubException(
            failure + " (gave up after " + attempt + " attempts)", status, cause);
      }
      if (wait.compareTo(retries.maxWait()) > 0) {
        throw new GitHubException(
            failure + " (rate limited for " + wait.toSeconds() + " s; not waiting that long)",
            status,
            cause);
      }
      try {
        sleeper.sleep(wait);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new GitHubException(what + " was interrupted while waiting to retry", status, e);
      }
    }
  }

  /** How long to wait before retrying this answer; empty when it must not be retried. */
  private Optional<Duration> retryAfter(HttpResponse<String> response, int attempt) {
    int status = response.statusCode();
    if (status >= 500) {
      return Optional.of(backoff(attempt));
    }
    if (status != 403 && status != 429) {
      return Optional.empty();
    }
    OptionalLong retryAfter = number(response.headers(), "retry-after");
    if (retryAfter.isPresent()) {
      return Optional.of(Duration.ofSeconds(Math.max(0, retryAfter.getAsLong())));
    }
    OptionalLong remaining = number(response.headers(), "x-ratelimit-remaining");
    OptionalLong reset = number(response.headers(), "x-ratelimit-reset");
    if (remaining.isPresent() && remaining.getAsLong() == 0 && reset.isPresent()) {
      Duration untilReset =
          Duration.between(clock.instant(), Instant.ofEpochSecond(reset.getAsLong()));
      return Optional.of(untilReset.isNegative() ? Duration.ZERO : untilReset.plusSeconds(1));
    }
    if (status == 429 || response.body().toLowerCase(Locale.ROOT).contains("rate limit")) {
      return Optional.of(backoff(attempt));
    }
    return Optional.empty();
  }

  /** Half the doubled delay, plus up to the other half at random. */
  private Duration backoff(int attempt) {
    long doubled = retries.firstBackoff().toMillis() << Math.min(attempt - 1, 20);
    long delay = Math.min(doubled, retries.maxBackoff().toMillis());
    return Duration.ofMillis(delay / 2 + Math.round(delay / 2.0 * jitter.getAsDouble()));
  }

  private static OptionalLong number(HttpHeaders headers, String name) {
    Optional<String> value = headers.firstValue(name);
    if (value.isEmpty()) {
      return OptionalLong.empty();
    }
    try {
      return OptionalLong.of(Long.parseLong(value.get().trim()));
    } catch (NumberFormatException e) {
      return OptionalLong.empty();
    }
  }

  /** GitHub's {@code message} field, or the start of the body. */
  private static String message(String body) {
    try {
      JsonNode node = JSON.readTree(body);
      if (node != null && node.hasNonNull("message")) {
        return node.get("message").asText();
      }
    } catch (IOException notJson) {
      // an HTML error page from a proxy: show its start
    }
    return body.length() <= 200 ? body : body.substring(0, 200) + "…";
  }
}
