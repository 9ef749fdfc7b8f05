package io.livegate.github;

import com.fasterxml.jackson.databind.JsonNode;
import io.livegate.core.pr.MergeGate;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.function.Supplier;

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
 *
 * With a GitHub App's credentials instead of a token ({@link #checkApp}): GitHub accepts the App's
 * JWT, the installation grants what livegate's tokens ask for ({@link
 * InstallationTokens#PERMISSIONS}), an installation token is minted for the repository and reads
 * it, the webhook (when the App may read webhooks), and the trunk requires {@code
 * livegate/merge-lock} from this App, which is what keeps a token with statuses:write from turning
 * it green. Minting a token is the one POST; it changes nothing in the repository.
 */
public final class GitHubDoctor {
  /**
   * One check's outcome; {@code checked} false for a check that could not be made with the
   * credentials given (not a failure: the line says how to check by hand).
   */
  public record Check(boolean ok, String what, String detail, String fix, boolean checked) {
    public Check(boolean ok, String what, String detail, String fix) {
      this(ok, what, detail, fix, true);
    }

    /** "ok token: ...", "FAIL webhook: ...; fix: ..." or "skip webhook: ...; check: ...". */
    public String line() {
      if (!checked) {
        return "skip  " + what + ": " + detail + "; check: " + fix;
      }
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

  /**
   * The checks with a GitHub App's credentials only, in order; a check that needs an earlier one's
   * answer is not run when that failed.
   *
   * @param clients a client of GitHub's API sending the given token
   */
  public static List<Check> checkApp(
      GitHubApp app,
      Function<Supplier<String>, GitHubClient> clients,
      Clock clock,
      String repository,
      String trunk,
      String webhookUrl) {
    String path = GitHubClient.repositoryPath(repository);
    List<Check> checks = new ArrayList<>();
    GitHubClient appClient = clients.apply(() -> app.jwt(clock.instant()));
    Function<Map<String, String>, InstallationTokens> tokens =
        permissions ->
            new InstallationTokens(app, appClient, Optional.of(repository), clock, permissions);
    GitHubDoctor asApp = new GitHubDoctor(appClient);
    Optional<JsonNode> self = asApp.get("/app");
    if (self.isEmpty()) {
      checks.add(
          failed(
              "app",
              "GitHub refused the App's JWT (" + asApp.lastFailure + ")",
              "the key must be one of this App's private keys (the App's settings > Private keys),"
                  + " the id its client ID or App ID, and this machine's clock within a minute of"
                  + " GitHub's"));
      return checks;
    }
    String name = self.get().path("slug").asText(self.get().path("name").asText("?"));
    long appId = self.get().path("id").asLong(-1);
    checks.add(ok("app", name + " (App id " + appId + ") accepts the JWT signed with its key"));
    String installationPath = "/app/installations/" + app.installationId();
    Optional<JsonNode> installation = asApp.get(installationPath);
    if (installation.isEmpty()) {
      checks.add(
          failed(
              "installation",
              "installation " + app.installationId() + " not found (" + asApp.lastFailure + ")",
              "install the App on the owner of "
                  + repository
                  + " and give the number at the end of the installation's settings URL"));
      return checks;
    }
    JsonNode granted = installation.get().path("permissions");
    List<String> missing = new ArrayList<>();
    new TreeMap<>(InstallationTokens.PERMISSIONS)
        .forEach(
            (permission, access) -> {
              String has = granted.path(permission).asText("none");
              if (!has.equals(access) && !has.equals("write")) {
                missing.add(permission + ": " + access + " (granted: " + has + ")");
              }
            });
    checks.add(
        missing.isEmpty()
            ? ok(
                "installation",
                "installation "
                    + app.installationId()
                    + " on "
                    + installation.get().path("account").path("login").asText("?")
                    + " grants "
                    + InstallationTokens.PERMISSIONS.size()
                    + " of livegate's permissions")
            : failed(
                "installation",
                "installation " + app.installationId() + " lacks " + String.join(", ", missing),
                "grant them in the App's settings > Permissions (docs/github-app.md), then accept"
                    + " the new permissions on the installation"));
    if (!missing.isEmpty()) {
      return checks;
    }
    InstallationTokens livegates = tokens.apply(InstallationTokens.PERMISSIONS);
    try {
      livegates.get();
    } catch (GitHubException e) {
      checks.add(
          failed(
              "installation token",
              "cannot mint one for " + repository + ": " + e.getMessage(),
              "add "
                  + repository
                  + " to the installation's repository access (installation settings >"
                  + " Repository access)"));
      return checks;
    }
    GitHubDoctor asInstallation = new GitHubDoctor(clients.apply(livegates));
    Optional<JsonNode> repo = asInstallation.get(path);
    checks.add(
        repo.isPresent()
            ? ok("installation token", "minted for " + repository + ", reads it")
            : failed(
                "installation token",
                "cannot read " + repository + " (" + asInstallation.lastFailure + ")",
                "add " + repository + " to the installation's repository access"));
    String hooks = granted.path("repository_hooks").asText("none");
    checks.add(
        hooks.equals("none")
            ? new Check(
                true,
                "webhook",
                "not checked: the App may not read " + repository + "'s webhooks",
                "Settings > Webhooks of "
                    + repository
                    + " posts Pull requests to "
                    + webhookUrl
                    + " as application/json with the secret, or grant the App Webhooks: read, or"
                    + " run doctor with an administrator's token",
                false)
            : new GitHubDoctor(clients.apply(tokens.apply(Map.of("repository_hooks", "read"))))
                .webhook(path, webhookUrl));
    checks.add(asInstallation.requiredFromApp(path, trunk, appId, name));
    return checks;
  }

  /**
   * The trunk requires {@code livegate/merge-lock} from the App: read from the branch itself, which
   * the App's Contents: read may read (the protection endpoints need administration).
   */
  private Check requiredFromApp(String path, String trunk, long appId, String name) {
    String what = "branch protection";
    String fix =
        "protect "
            + trunk
            + " and require the "
            + MergeGate.CONTEXT
            + " check with "
            + name
            + " as its source, so that a merge waits for the deployment and no token with"
            + " statuses:write can pass it";
    Optional<JsonNode> branch = get(path + "/branches/" + trunk);
    if (branch.isEmpty()) {
      return failed(what, "cannot read branch " + trunk + " (" + lastFailure + ")", fix);
    }
    JsonNode required = branch.get().path("protection").path("required_status_checks");
    boolean anySource = false;
    for (JsonNode context : required.path("contexts")) {
      anySource |= context.asText().equals(MergeGate.CONTEXT);
    }
    for (JsonNode check : required.path("checks")) {
      if (check.path("context").asText().equals(MergeGate.CONTEXT)) {
        if (check.path("app_id").asLong(-1) == appId) {
          return ok(what, trunk + " requires " + MergeGate.CONTEXT + " from " + name);
        }
        anySource = true;
      }
    }
    return anySource
        ? failed(
            what,
            trunk
                + " requires "
                + MergeGate.CONTEXT
                + " from any source: any token with statuses:write can turn it green",
            fix)
        : failed(what, trunk + " does not require " + MergeGate.CONTEXT, fix);
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
