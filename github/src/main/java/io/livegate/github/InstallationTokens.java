package io.livegate.github;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.livegate.core.Jackson;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * A GitHub App installation's access tokens, the token every other GitHub call and HTTPS clone
 * sends when livegate runs as an App. A token is minted with {@code POST
 * /app/installations/{id}/access_tokens} (authenticated by the App's JWT), kept, and minted again
 * {@link #REFRESH_BEFORE} before its {@code expires_at} (GitHub's tokens last an hour), so a call
 * never starts with a token about to lapse.
 *
 * <p>Each token is narrowed to the live repository, when one is named, and to {@link #PERMISSIONS}:
 * a token that leaks (it sits in a clone's credentials while git runs) can do no more than livegate
 * itself does with it.
 */
public final class InstallationTokens implements Supplier<String> {
  /** What livegate does with the token, and nothing else (docs/github-app.md names each use). */
  public static final Map<String, String> PERMISSIONS =
      Map.of(
          "contents", "read",
          "checks", "write",
          "pull_requests", "write",
          "issues", "write");

  static final Duration REFRESH_BEFORE = Duration.ofMinutes(5);

  private static final ObjectMapper JSON = Jackson.MAPPER;

  private record Token(String value, Instant expiresAt) {}

  private final GitHubApp app;
  private final GitHubClient appClient;
  private final Optional<String> repository;
  private final Clock clock;
  private final Map<String, String> permissions;
  private Token current;

  /**
   * @param appClient a client whose token is the App's JWT ({@link #create})
   * @param repository {@code owner/name} the tokens are limited to; empty for every repository of
   *     the installation
   */
  public InstallationTokens(
      GitHubApp app, GitHubClient appClient, Optional<String> repository, Clock clock) {
    this(app, appClient, repository, clock, PERMISSIONS);
  }

  /**
   * @param permissions what each token asks for instead of {@link #PERMISSIONS} (doctor asks for
   *     Webhooks: read alone to read the webhook)
   */
  public InstallationTokens(
      GitHubApp app,
      GitHubClient appClient,
      Optional<String> repository,
      Clock clock,
      Map<String, String> permissions) {
    repository.ifPresent(GitHubClient::repositoryPath);
    this.app = app;
    this.appClient = appClient;
    this.repository = repository;
    this.clock = clock;
    this.permissions = Map.copyOf(permissions);
  }

  /** Tokens of {@code app} from {@code apiBase}, with the default retries and the system clock. */
  public static InstallationTokens create(GitHubApp app, URI apiBase, Optional<String> repository) {
    Clock clock = Clock.systemUTC();
    return new InstallationTokens(
        app, GitHubClient.create(apiBase, () -> app.jwt(clock.instant())), repository, clock);
  }

  /** A token valid for at least {@link #REFRESH_BEFORE}; minted now when the kept one is not. */
  @Override
  public synchronized String get() {
    if (current == null || !clock.instant().isBefore(current.expiresAt().minus(REFRESH_BEFORE))) {
      current = mint();
    }
    return current.value();
  }

  private Token mint() {
    ObjectNode request = JSON.createObjectNode();
    repository.ifPresent(
        name -> request.putArray("repositories").add(name.substring(name.indexOf('/') + 1)));
    ObjectNode asked = request.putObject("permissions");
    permissions.forEach(asked::put);
    String path = "/app/installations/" + app.installationId() + "/access_tokens";
    GitHubClient.Response response = appClient.post(path, request);
    JsonNode answer = response.json();
    String token = answer == null ? "" : answer.path("token").asText("");
    String expiresAt = answer == null ? "" : answer.path("expires_at").asText("");
    if (token.isEmpty()) {
      throw new GitHubException(
          "POST " + path + " answered " + response.status() + " without a token", -1, null);
    }
    try {
      return new Token(token, Instant.parse(expiresAt));
    } catch (DateTimeParseException e) {
      throw new GitHubException(
          "POST " + path + " answered an expires_at that is not a time: '" + expiresAt + "'",
          response.status(),
          e);
    }
  }
}
