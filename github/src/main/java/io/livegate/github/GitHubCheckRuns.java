package io.livegate.github;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.livegate.core.Jackson;
import io.livegate.core.deploy.CommitStatusPublisher;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.OptionalLong;

/**
 * livegate's statuses as check runs, when livegate runs as a GitHub App: only an App can write
 * check runs, so a branch protection that requires {@code livegate/merge-lock} from this App cannot
 * be turned green by anyone holding a token with {@code statuses: write}. The check run's name is
 * the status's context; its title and summary are the description (a plan's summary: "+1 ~0 -0").
 *
 * <p>A pending state starts a check run ({@code in_progress}); the final state completes the same
 * run in place ({@code PATCH}) rather than adding a second one. A new pending state after a
 * completed run (a re-plan, the lock taken again) starts a new run: GitHub shows, and branch
 * protection reads, the latest run of each name. A run that cannot be written throws; entry points
 * reach this class through {@link GitHubStatuses#publisher}, which logs that instead.
 */
public final class GitHubCheckRuns implements CommitStatusPublisher {
  /** The longest output summary GitHub takes. */
  private static final int MAX_SUMMARY = 65_535;

  private static final ObjectMapper JSON = Jackson.MAPPER;

  private final GitHubClient client;

  public GitHubCheckRuns(GitHubClient client) {
    this.client = client;
  }

  @Override
  public void publish(
      String repository,
      String sha,
      String context,
      State state,
      String description,
      String targetUrl) {
    String repositoryPath = GitHubClient.repositoryPath(repository);
    ObjectNode body = JSON.createObjectNode();
    if (state == State.PENDING) {
      body.put("status", "in_progress");
    } else {
      body.put("status", "completed")
          .put("conclusion", state == State.SUCCESS ? "success" : "failure");
    }
    String text = description == null ? "" : description.strip();
    body.putObject("output")
        .put("title", GitHubStatuses.description(text))
        .put("summary", text.isEmpty() ? context : cut(text));
    if (targetUrl != null && !targetUrl.isBlank()) {
      body.put("details_url", targetUrl);
    }
    OptionalLong running = running(repositoryPath, GitHubClient.commit(sha), context);
    if (running.isPresent()) {
      client.patch(repositoryPath + "/check-runs/" + running.getAsLong(), body);
    } else {
      body.put("name", context).put("head_sha", sha);
      client.post(repositoryPath + "/check-runs", body);
    }
  }

  /** The newest run named {@code name} on the commit, when it is not completed yet. */
  private OptionalLong running(String repositoryPath, String sha, String name) {
    JsonNode answer =
        client
            .get(
                repositoryPath
                    + "/commits/"
                    + sha
                    + "/check-runs?filter=latest&check_name="
                    + URLEncoder.encode(name, StandardCharsets.UTF_8).replace("+", "%20"))
            .json();
    if (answer == null) {
      return OptionalLong.empty();
    }
    for (JsonNode run : answer.path("check_runs")) {
      if (name.equals(run.path("name").asText())
          && !"completed".equals(run.path("status").asText())) {
        return OptionalLong.of(run.path("id").asLong());
      }
    }
    return OptionalLong.empty();
  }

  private static String cut(String text) {
    return text.length() <= MAX_SUMMARY ? text : text.substring(0, MAX_SUMMARY - 1) + "…";
  }
}
