package io.livegate.aws;

import io.livegate.core.LivegateException;
import io.livegate.core.deploy.CommitStatusPublisher;
import io.livegate.core.deploy.LoggedStatuses;
import io.livegate.core.drift.DriftIssues;
import io.livegate.core.pr.PlanComments;
import io.livegate.github.GitHubApp;
import io.livegate.github.GitHubClient;
import io.livegate.github.GitHubComments;
import io.livegate.github.GitHubIssues;
import io.livegate.github.GitHubStatuses;
import io.livegate.statemachine.RuntimeContract;
import java.net.URI;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Supplier;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.ssm.SsmClient;

/**
 * GitHub as an AWS entry point reaches it: the API's URL ({@value RuntimeContract.GitHub#API_URL},
 * default {@code https://api.github.com}; a GitHub Enterprise Server's is {@code
 * https://HOST/api/v3}) and a token from Secrets Manager ({@value
 * RuntimeContract.GitHub#TOKEN_SECRET}) or from an SSM SecureString parameter ({@value
 * RuntimeContract.GitHub#TOKEN_PARAMETER}). The secret or parameter holds a token, or a GitHub
 * App's JSON (app id, installation id, private key; docs/github-app.md), whose installation tokens
 * are then minted, limited to the live repository ({@value RuntimeContract.Webhook#REPOSITORY}) and
 * renewed before they expire ({@link GitHubApp#tokens}). It is read on first use, never while a
 * Lambda initialises. Without it, statuses are logged.
 */
public final class GitHubAccess {
  /** What the secret or parameter gives, read on first use: a token, or an App's tokens. */
  private final Optional<Supplier<Supplier<String>>> tokens;

  private final Optional<Supplier<String>> token;
  private final URI apiUrl;

  private GitHubAccess(Optional<Supplier<Supplier<String>>> tokens, URI apiUrl) {
    this.tokens = tokens;
    this.token = tokens.map(source -> () -> source.get().get());
    this.apiUrl = apiUrl;
  }

  /**
   * @param ssm built only when the token is an SSM parameter
   */
  public static GitHubAccess from(
      Map<String, String> environment, Secrets secrets, Supplier<SsmClient> ssm) {
    String secret = Env.optional(environment, RuntimeContract.GitHub.TOKEN_SECRET, "");
    String parameter = Env.optional(environment, RuntimeContract.GitHub.TOKEN_PARAMETER, "");
    if (!secret.isEmpty() && !parameter.isEmpty()) {
      throw new LivegateException(
          "set one of "
              + RuntimeContract.GitHub.TOKEN_SECRET
              + " and "
              + RuntimeContract.GitHub.TOKEN_PARAMETER
              + ", not both");
    }
    URI apiUrl = apiUrl(environment);
    Optional<String> repository =
        Optional.of(Env.optional(environment, RuntimeContract.Webhook.REPOSITORY, ""))
            .filter(name -> !name.isEmpty());
    Optional<Supplier<Supplier<String>>> tokens = Optional.empty();
    if (!secret.isEmpty()) {
      tokens =
          Optional.of(
              Secrets.memoize(
                  () ->
                      GitHubApp.tokens(
                          secrets.text(secret), apiUrl, repository, "the secret " + secret)));
    } else if (!parameter.isEmpty()) {
      tokens =
          Optional.of(
              Secrets.memoize(
                  () ->
                      GitHubApp.tokens(
                          parameter(ssm.get(), parameter),
                          apiUrl,
                          repository,
                          "the SSM parameter " + parameter)));
    }
    return new GitHubAccess(tokens, apiUrl);
  }

  /**
   * The token for HTTPS clones and API calls, asked for at each use (an App's installation token is
   * renewed); empty when none is configured.
   */
  public Optional<Supplier<String>> token() {
    return token;
  }

  /**
   * Statuses on GitHub: check runs when the credentials are a GitHub App's (only an App can write
   * them), commit statuses for a token; in the log when nothing is configured. Which one is known
   * only once the secret is read, so it is decided at the first status.
   */
  public CommitStatusPublisher statuses(Consumer<String> log) {
    if (tokens.isEmpty()) {
      return new LoggedStatuses(log);
    }
    return GitHubStatuses.publisher(client().orElseThrow(), tokens.get(), log);
  }

  /** The pull request's plan comment; empty when no token is configured. */
  public Optional<PlanComments> planComments(Consumer<String> log) {
    return client().map(client -> new PlanComments(new GitHubComments(client), log));
  }

  /** livegate's drift issue; empty when no token is configured. */
  public Optional<DriftIssues> driftIssues() {
    return client().map(GitHubIssues::new);
  }

  private Optional<GitHubClient> client() {
    return token.map(supplier -> GitHubClient.create(apiUrl, supplier));
  }

  private static URI apiUrl(Map<String, String> environment) {
    String value =
        Env.optional(
            environment, RuntimeContract.GitHub.API_URL, GitHubClient.PUBLIC_API.toString());
    try {
      URI uri = URI.create(value);
      if (("https".equals(uri.getScheme()) || "http".equals(uri.getScheme()))
          && uri.getHost() != null) {
        return uri;
      }
    } catch (IllegalArgumentException e) {
      // answered below
    }
    throw new LivegateException(
        RuntimeContract.GitHub.API_URL
            + " must be a URL such as https://api.github.com, not "
            + value);
  }

  private static String parameter(SsmClient ssm, String name) {
    try {
      String value =
          ssm.getParameter(request -> request.name(name).withDecryption(true)).parameter().value();
      if (value == null || value.isBlank()) {
        throw new LivegateException("the SSM parameter " + name + " holds no token");
      }
      return value.strip();
    } catch (SdkException e) {
      throw new LivegateException(
          "cannot read the SSM parameter " + name + ": " + e.getMessage(), e);
    }
  }
}
