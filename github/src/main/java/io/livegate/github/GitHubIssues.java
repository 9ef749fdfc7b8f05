package io.livegate.github;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.livegate.core.Jackson;
import io.livegate.core.drift.DriftIssues;
import java.net.URI;
import java.util.Optional;

/**
 * livegate's drift issue on GitHub: open issues carrying the {@value #LABEL} label are walked page
 * by page for the one whose body starts with the marker; it is created with {@code POST}, updated
 * (and closed) in place with {@code PATCH}. Pull requests, which the issues API lists too, are
 * skipped. Failures throw {@link GitHubException}.
 */
public final class GitHubIssues implements DriftIssues {
  /** The label on livegate's drift issue. */
  public static final String LABEL = "livegate-drift";

  private static final ObjectMapper JSON = Jackson.MAPPER;

  private final GitHubClient client;

  public GitHubIssues(GitHubClient client) {
    this.client = client;
  }

  @Override
  public Optional<Issue> findOpen(String repository, String marker) {
    GitHubClient.Response page =
        client.get(
            GitHubClient.repositoryPath(repository)
                + "/issues?state=open&labels="
                + LABEL
                + "&per_page=100");
    while (true) {
      for (JsonNode issue : page.json()) {
        String body = issue.path("body").asText("");
        if (!issue.has("pull_request") && body.startsWith(marker)) {
          return Optional.of(new Issue(issue.path("number").asInt(), body));
        }
      }
      Optional<URI> next = page.next();
      if (next.isEmpty()) {
        return Optional.empty();
      }
      page = client.get(next.get());
    }
  }

  @Override
  public int create(String repository, String title, String body) {
    var request = JSON.createObjectNode().put("title", title).put("body", body);
    request.putArray("labels").add(LABEL);
    return client
        .post(GitHubClient.repositoryPath(repository) + "/issues", request)
        .json()
        .path("number")
        .asInt();
  }

  @Override
  public void update(String repository, int number, String body, boolean close) {
    var request = JSON.createObjectNode().put("body", body);
    if (close) {
      request.put("state", "closed");
    }
    client.patch(GitHubClient.repositoryPath(repository) + "/issues/" + number, request);
  }
}
