package io.livegate.github;

import static io.livegate.github.GitHubAppStandIn.pkcs1Pem;
import static io.livegate.github.GitHubAppStandIn.rsaKeyPair;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.security.KeyPair;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * livegate doctor with a GitHub App's credentials only, against {@link GitHubAppStandIn}, which
 * verifies the App's JWT with its public key and mints installation tokens only within what the
 * installation grants: a well set-up App passes every check, and each mistake fails its own check
 * with the fix.
 */
class GitHubDoctorAppTest {
  private static final KeyPair APP_KEY = rsaKeyPair();
  private static final String URL = "https://abc.lambda-url.eu-west-1.on.aws/";

  private final Clock clock = Clock.fixed(Instant.parse("2026-11-27T10:00:00Z"), ZoneOffset.UTC);
  private GitHubAppStandIn github;

  @BeforeEach
  void start() throws IOException {
    github = new GitHubAppStandIn(APP_KEY.getPublic(), clock);
  }

  @AfterEach
  void stop() {
    github.close();
  }

  private List<String> lines(KeyPair key) {
    GitHubApp app =
        GitHubApp.of(
            GitHubAppStandIn.APP_ID, GitHubAppStandIn.INSTALLATION, pkcs1Pem(key), "app.pem");
    return GitHubDoctor.checkApp(app, github::client, clock, "acme/live", "main", URL).stream()
        .map(GitHubDoctor.Check::line)
        .toList();
  }

  private List<String> lines() {
    return lines(APP_KEY);
  }

  @Test
  void aWellSetUpAppPassesEveryCheckAndSaysTheWebhookIsNotItsToRead() {
    assertThat(lines())
        .containsExactly(
            "ok    app: livegate-acme (App id 1234) accepts the JWT signed with its key",
            "ok    installation: installation 4567 on acme grants 4 of livegate's permissions",
            "ok    installation token: minted for acme/live, reads it",
            "skip  webhook: not checked: the App may not read acme/live's webhooks; check:"
                + " Settings > Webhooks of acme/live posts Pull requests to "
                + URL
                + " as application/json with the secret, or grant the App Webhooks: read, or run"
                + " doctor with an administrator's token",
            "ok    branch protection: main requires livegate/merge-lock from livegate-acme");
    assertThat(github.tokenRequests)
        .singleElement()
        .satisfies(
            request -> assertThat(request.path("repositories").toString()).isEqualTo("[\"live\"]"));
  }

  @Test
  void anAppAllowedToReadWebhooksHasItsWebhookCheckedWithATokenForThatAlone() {
    github.granted.put("repository_hooks", "read");
    github.hooks =
        "[{\"id\": 7, \"active\": true, \"events\": [\"pull_request\"], \"config\": {\"url\": \""
            + URL
            + "\", \"content_type\": \"form\", \"secret\": \"********\"}}]";

    assertThat(lines().get(3))
        .isEqualTo(
            "FAIL  webhook: hook 7 posts to "
                + URL
                + ", but its content type is not application/json; fix: edit it in Settings >"
                + " Webhooks: active, content type application/json, the webhook secret, the Pull"
                + " requests event");
    assertThat(github.tokenRequests.get(1).path("permissions").toString())
        .isEqualTo("{\"repository_hooks\":\"read\"}");
  }

  @Test
  void aKeyThatIsNotTheAppsFailsTheAppCheckAndNothingElseIsAsked() {
    assertThat(lines(rsaKeyPair()))
        .containsExactly(
            "FAIL  app: GitHub refused the App's JWT (GitHub answered 401); fix: the key must be"
                + " one of this App's private keys (the App's settings > Private keys), the id its"
                + " client ID or App ID, and this machine's clock within a minute of GitHub's");
    assertThat(github.tokenRequests).isEmpty();
  }

  @Test
  void anInstallationLackingAPermissionFailsNamingItBeforeAnyTokenIsMinted() {
    github.granted.put("checks", "read");
    github.granted.remove("issues");

    assertThat(lines())
        .containsExactly(
            "ok    app: livegate-acme (App id 1234) accepts the JWT signed with its key",
            "FAIL  installation: installation 4567 lacks checks: write (granted: read), issues:"
                + " write (granted: none); fix: grant them in the App's settings > Permissions"
                + " (docs/github-app.md), then accept the new permissions on the installation");
    assertThat(github.tokenRequests).isEmpty();
  }

  @Test
  void anInstallationWithoutTheRepositoryFailsTheTokenCheckWithGitHubsMessage() {
    github.repositories.clear();

    assertThat(lines().get(2))
        .startsWith("FAIL  installation token: cannot mint one for acme/live: ")
        .contains("answered 422")
        .contains("not accessible to the parent installation")
        .endsWith(
            "; fix: add acme/live to the installation's repository access (installation settings"
                + " > Repository access)");
  }

  @Test
  void aMergeLockRequiredFromAnySourceFailsBecauseAnyTokenCouldPassIt() {
    github.branch = GitHubAppStandIn.protectedBranch(15368);

    assertThat(lines().get(4))
        .isEqualTo(
            "FAIL  branch protection: main requires livegate/merge-lock from any source: any"
                + " token with statuses:write can turn it green; fix: protect main and require the"
                + " livegate/merge-lock check with livegate-acme as its source, so that a merge"
                + " waits for the deployment and no token with statuses:write can pass it");
  }
}
