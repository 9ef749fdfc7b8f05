package io.livegate.github;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.livegate.core.Jackson;
import io.livegate.core.deploy.CommitStatusPublisher;
import java.util.Locale;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * Commit statuses on GitHub ({@code POST /repos/{owner}/{repo}/statuses/{sha}}). A status that
 * cannot be posted, even after the client's retries, throws; {@link #publisher}, what the entry
 * points use, logs and drops it ({@link CommitStatusPublisher#neverFailing}): GitHub being briefly
 * unavailable never fails a deployment or a plan. "Retry later" means the client's backoff window.
 */
public final class GitHubStatuses implements CommitStatusPublisher {
  /** GitHub keeps at most this many characters of a description. */
  public static final int MAX_DESCRIPTION = 140;

  private static final ObjectMapper JSON = Jackson.MAPPER;

  private final GitHubClient client;

  public GitHubStatuses(GitHubClient client) {
    this.client = client;
  }

  /**
   * livegate's statuses on GitHub as an entry point posts them: check runs when the credentials are
   * a GitHub App's ({@link InstallationTokens}; only an App can write them), commit statuses for a
   * token. Which one is known only once the credentials are read (on AWS from a secret, at the
   * first status), so it is decided at each status. Whatever fails, reading the credentials
   * included, is logged, never thrown.
   *
   * @param credentials what the client's token comes from, read when a status is posted
   */
  public static CommitStatusPublisher publisher(
      GitHubClient client, Supplier<Supplier<String>> credentials, Consumer<String> log) {
    CommitStatusPublisher checkRuns = new GitHubCheckRuns(client);
    CommitStatusPublisher statuses = new GitHubStatuses(client);
    return CommitStatusPublisher.neverFailing(
        (repository, sha, context, state, description, targetUrl) ->
            (credentials.get() instanceof InstallationTokens ? checkRuns : statuses)
                .publish(repository, sha, context, state, description, targetUrl),
        log);
  }

  @Override
  public void publish(
      String repository,
      String sha,
      String context,
      State state,
      String description,
      String targetUrl) {
    String path = GitHubClient.repositoryPath(repository) + "/statuses/" + GitHubClient.commit(sha);
    ObjectNode body =
        JSON.createObjectNode()
            .put("state", state.name().toLowerCase(Locale.ROOT))
            .put("context", context)
            .put("description", description(description));
    if (targetUrl != null && !targetUrl.isBlank()) {
      body.put("target_url", targetUrl);
    }
    client.post(path, body);
  }

  /** One line of at most {@link #MAX_DESCRIPTION} characters, cut on a code point boundary. */
  static String description(String text) {
    String line = text == null ? "" : text.replaceAll("\\s+", " ").strip();
    if (line.codePointCount(0, line.length()) <= MAX_DESCRIPTION) {
      return line;
    }
    return line.substring(0, line.offsetByCodePoints(0, MAX_DESCRIPTION - 1)) + "…";
  }
}
