package io.livegate.github;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.livegate.core.Jackson;
import io.livegate.core.deploy.CommitStatusPublisher;
import java.util.Locale;
import java.util.function.Consumer;

/**
 * Commit statuses on GitHub ({@code POST /repos/{owner}/{repo}/statuses/{sha}}). A status that
 * cannot be posted, even after the client's retries, is logged and dropped: GitHub being briefly
 * unavailable never fails a deployment or a plan. "Retry later" means the client's backoff window;
 * there is no outbox, because every later state of the same context posts a newer status anyway.
 */
public final class GitHubStatuses implements CommitStatusPublisher {
  /** GitHub keeps at most this many characters of a description. */
  public static final int MAX_DESCRIPTION = 140;

  private static final ObjectMapper JSON = Jackson.MAPPER;

  private final GitHubClient client;
  private final Consumer<String> log;

  public GitHubStatuses(GitHubClient client, Consumer<String> log) {
    this.client = client;
    this.log = log;
  }

  @Override
  public void publish(
      String repository,
      String sha,
      String context,
      State state,
      String description,
      String targetUrl) {
    try {
      String path =
          GitHubClient.repositoryPath(repository) + "/statuses/" + GitHubClient.commit(sha);
      ObjectNode body =
          JSON.createObjectNode()
              .put("state", state.name().toLowerCase(Locale.ROOT))
              .put("context", context)
              .put("description", description(description));
      if (targetUrl != null && !targetUrl.isBlank()) {
        body.put("target_url", targetUrl);
      }
      client.post(path, body);
    } catch (RuntimeException e) {
      // Whatever went wrong, a status never fails the deployment or plan that posts it.
      log.accept(
          "status "
              + context
              + " ("
              + state.name().toLowerCase(Locale.ROOT)
              + ") on "
              + repository
              + "@"
              + sha
              + " not posted: "
              + e.getMessage());
    }
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
