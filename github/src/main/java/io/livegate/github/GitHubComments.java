package io.livegate.github;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.livegate.core.Jackson;
import io.livegate.core.LivegateException;
import io.livegate.core.pr.PullRequestCommenter;
import java.net.URI;
import java.util.Optional;

/**
 * A pull request's comments on GitHub (issue comments): found by walking every page of the list,
 * created with {@code POST}, updated in place with {@code PATCH}. Failures throw {@link
 * GitHubException}; {@link io.livegate.core.pr.PlanComments} logs them.
 */
public final class GitHubComments implements PullRequestCommenter {
  private static final ObjectMapper JSON = Jackson.MAPPER;

  private final GitHubClient client;

  public GitHubComments(GitHubClient client) {
    this.client = client;
  }

  @Override
  public Optional<Comment> find(String repository, int number, String marker) {
    GitHubClient.Response page = client.get(comments(repository, number) + "?per_page=100");
    while (true) {
      for (JsonNode comment : page.json()) {
        String body = comment.path("body").asText("");
        if (body.startsWith(marker)) {
          return Optional.of(new Comment(comment.path("id").asLong(), body));
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
  public void create(String repository, int number, String body) {
    client.post(comments(repository, number), JSON.createObjectNode().put("body", body));
  }

  @Override
  public void update(String repository, long commentId, String body) {
    client.patch(
        GitHubClient.repositoryPath(repository) + "/issues/comments/" + commentId,
        JSON.createObjectNode().put("body", body));
  }

  private static String comments(String repository, int number) {
    if (number <= 0) {
      throw new LivegateException("a pull request number is positive, not " + number);
    }
    return GitHubClient.repositoryPath(repository) + "/issues/" + number + "/comments";
  }
}
