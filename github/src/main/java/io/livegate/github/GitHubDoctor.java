package io.livegate.github;

import com.fasterxml.jackson.databind.JsonNode;
import io.livegate.core.pr.MergeGate;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * {@code livegate doctor}'s GitHub checks: what an installation needs of GitHub, each answered with
 * one line and, when it fails, the fix. Nothing is written: every check is a GET.
 *
 * <ul>
 *   <li>the token reads the repository (contents);
 *   <li>the token writes to it, which commit statuses and pull request comments need (GitHub drops
 *       a comment the token may not write, so a missing permission is silent otherwise);
 *   <li>a webhook posts pull request events to livegate's URL, active, as JSON, with a secret;
 *   <li>the trunk's branch protection requires the {@code livegate/merge-lock} status.
 * </ul>
 */
public final class GitHubDoctor {
  /** One check's outcome. */
  public record Check(boolean ok, String what, String detail, String fix) {
    /** "ok token: ..." or "FAIL webhook: ...; fix: ...". */
    public String line() {
      return (ok ? "ok    " : "FAIL  ") + what + ": " + detail + (ok ? "" : "; fix: " + fix);
    }
  }

  private final GitHubClient client;

  /** Why the last {@link #get} answered nothing, for the check's line. */
  private String lastFailure = "";

  public GitHubDoctor(GitHubClient client) {
    this.client = client;
  }

  /** Every check, in order; later checks still run when an earlier one failed. */
  public List<Check> check(String repository, String trunk, String webhookUrl) {
    String path = GitHubClient.repositoryPath(repository);
    List<Check> checks = new ArrayList<>();
    Optional<JsonNode> repo = get(path);
    if (repo.isEmpty()) {
      checks.add(
          failed(
              "token",
              "cannot read " + repository + " (" + lastFailure + ")",
              "give the token Contents: read on "
                  + repository
                  + " (a classic token: the repo scope)"));
    } else {
      checks.add(ok("token", "reads " + repository));
      boolean push = repo.get().path("permissions").path("push").asBoolean(false);
      checks.add(
          push
              ? ok("statuses and comments", "the token may write to " + repository)
              : failed(
                  "statuses and comments",
                  "the token cannot write to " + repository,
                  "give it Commit statuses: write and Pull requests: write (a classic token: the"
                      + " repo scope)"));
    }
    checks.add(webhook(path, webhookUrl));
    checks.add(protection(path, trunk));
    return checks;
  }

  private Check webhook(String path, String webhookUrl) {
    String what = "webhook";
    Optional<JsonNode> hooks = get(path + "/hooks");
    if (hooks.isEmpty()) {
      return failed(
          what,
          "cannot list the webhooks (" + lastFailure + ")",
          "give the token Webhooks: read, or check Settings > Webhooks by hand");
    }
    for (JsonNode hook : hooks.get()) {
      if (!webhookUrl.equals(hook.path("config").path("url").asText())) {
        continue;
      }
      List<String> wrong = new ArrayList<>();
      if (!hook.path("active").asBoolean(false)) {
        wrong.add("it is inactive");
      }
      boolean pullRequests = false;
      for (JsonNode event : hook.path("events")) {
        pullRequests |= event.asText().equals("pull_request") || event.asText().equals("*");
      }
      if (!pullRequests) {
        wrong.add("it does not send Pull requests events");
      }
      if (!"json".equals(hook.path("config").path("content_type").asText())) {
        wrong.add("its content type is not application/json");
      }
      if (!hook.path("config").has("secret")) {
        wrong.add("it has no secret");
      }
      return wrong.isEmpty()
          ? ok(what, "hook " + hook.path("id").asText() + " posts pull requests to " + webhookUrl)
          : failed(
              what,
              "hook "
                  + hook.path("id").asText()
                  + " posts to "
                  + webhookUrl
                  + ", but "
                  + String.join(", ", wrong),
              "edit it in Settings > Webhooks: active, content type application/json, the"
                  + " webhook secret, the Pull requests event");
    }
    return failed(
        what,
        "no webhook posts to " + webhookUrl,
        "add one in Settings > Webhooks: payload URL "
            + webhookUrl
            + ", content type application/json, the webhook secret, the Pull requests event");
  }

  private Check protection(String path, String trunk) {
    String what = "branch protection";
    Optional<JsonNode> required =
        get(path + "/branches/" + trunk + "/protection/required_status_checks");
    String fix =
        "protect "
            + trunk
            + " and require the "
            + MergeGate.CONTEXT
            + " status check, so that a merge waits for the deployment before it";
    if (required.isEmpty()) {
      return failed(what, trunk + " requires no status checks (" + lastFailure + ")", fix);
    }
    boolean found = false;
    for (JsonNode context : required.get().path("contexts")) {
      found |= context.asText().equals(MergeGate.CONTEXT);
    }
    for (JsonNode check : required.get().path("checks")) {
      found |= check.path("context").asText().equals(MergeGate.CONTEXT);
    }
    return found
        ? ok(what, trunk + " requires " + MergeGate.CONTEXT)
        : failed(what, trunk + " does not require " + MergeGate.CONTEXT, fix);
  }

  private Optional<JsonNode> get(String path) {
    try {
      return Optional.of(client.get(path).json());
    } catch (GitHubException e) {
      lastFailure = e.status() > 0 ? "GitHub answered " + e.status() : e.getMessage();
      return Optional.empty();
    }
  }

  private static Check ok(String what, String detail) {
    return new Check(true, what, detail, "");
  }

  private static Check failed(String what, String detail, String fix) {
    return new Check(false, what, detail, fix);
  }
}
