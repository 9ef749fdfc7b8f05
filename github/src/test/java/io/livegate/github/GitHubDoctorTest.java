package io.livegate.github;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.okJson;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.wireMockConfig;
import static org.assertj.core.api.Assertions.assertThat;

import com.github.tomakehurst.wiremock.junit5.WireMockExtension;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * livegate doctor's GitHub checks against a WireMock stand-in for GitHub's API: a well set-up
 * repository passes every check, and each kind of mistake fails its own check with its fix.
 */
class GitHubDoctorTest {
  @RegisterExtension
  static final WireMockExtension GITHUB =
      WireMockExtension.newInstance().options(wireMockConfig().dynamicPort()).build();

  private static final String URL = "https://abc.lambda-url.eu-west-1.on.aws/";
  private static final String REPO = "/repos/acme/live";
  private static final String HOOK =
      "{\"id\": 7, \"active\": true, \"events\": [\"pull_request\"], \"config\": {\"url\": \""
          + URL
          + "\", \"content_type\": \"json\", \"secret\": \"********\"}}";

  private GitHubDoctor doctor;

  @BeforeEach
  void wellSetUp() {
    doctor = new GitHubDoctor(new GitHubStubs(GITHUB.baseUrl()).client);
    GITHUB.stubFor(
        get(REPO).willReturn(okJson("{\"permissions\": {\"pull\": true, \"push\": true}}")));
    GITHUB.stubFor(get(REPO + "/hooks").willReturn(okJson("[" + HOOK + "]")));
    GITHUB.stubFor(
        get(REPO + "/branches/main/protection/required_status_checks")
            .willReturn(okJson("{\"strict\": false, \"contexts\": [\"livegate/merge-lock\"]}")));
  }

  private List<String> lines() {
    return doctor.check("acme/live", "main", URL).stream().map(GitHubDoctor.Check::line).toList();
  }

  @Test
  void aWellSetUpRepositoryPassesEveryCheck() {
    assertThat(lines())
        .containsExactly(
            "ok    token: reads acme/live",
            "ok    statuses and comments: the token may write to acme/live",
            "ok    webhook: hook 7 posts pull requests to " + URL,
            "ok    branch protection: main requires livegate/merge-lock");
  }

  @Test
  void aReadOnlyTokenFailsTheWriteCheckWithItsPermissions() {
    GITHUB.stubFor(
        get(REPO).willReturn(okJson("{\"permissions\": {\"pull\": true, \"push\": false}}")));

    assertThat(lines().get(1))
        .isEqualTo(
            "FAIL  statuses and comments: the token cannot write to acme/live; fix: give it Commit"
                + " statuses: write and Pull requests: write (a classic token: the repo scope)");
  }

  @Test
  void aTokenThatCannotReadTheRepositoryFailsTheTokenCheck() {
    GITHUB.stubFor(
        get(REPO).willReturn(aResponse().withStatus(404).withBody("{\"message\": \"Not Found\"}")));

    assertThat(lines().get(0))
        .isEqualTo(
            "FAIL  token: cannot read acme/live (GitHub answered 404); fix: give the token"
                + " Contents: read on acme/live (a classic token: the repo scope)");
  }

  @Test
  void aWebhookWithoutPullRequestEventsOrSecretFailsAndAMissingOneIsNamed() {
    GITHUB.stubFor(
        get(REPO + "/hooks")
            .willReturn(
                okJson(
                    "["
                        + HOOK.replace("\"pull_request\"", "\"push\"")
                            .replace(", \"secret\": \"********\"", "")
                        + "]")));
    assertThat(lines().get(2))
        .isEqualTo(
            "FAIL  webhook: hook 7 posts to "
                + URL
                + ", but it does not send Pull requests events, it has no secret; fix: edit it in"
                + " Settings > Webhooks: active, content type application/json, the webhook"
                + " secret, the Pull requests event");

    GITHUB.stubFor(get(REPO + "/hooks").willReturn(okJson("[]")));
    assertThat(lines().get(2))
        .startsWith("FAIL  webhook: no webhook posts to " + URL + "; fix: add one");
  }

  @Test
  void aTrunkThatDoesNotRequireTheMergeLockFailsTheProtectionCheck() {
    GITHUB.stubFor(
        get(REPO + "/branches/main/protection/required_status_checks")
            .willReturn(
                okJson(
                    "{\"contexts\": [\"ci/build\"], \"checks\": [{\"context\": \"ci/build\"}]}")));
    assertThat(lines().get(3))
        .isEqualTo(
            "FAIL  branch protection: main does not require livegate/merge-lock; fix: protect main"
                + " and require the livegate/merge-lock status check, so that a merge waits for the"
                + " deployment before it");

    GITHUB.stubFor(
        get(REPO + "/branches/main/protection/required_status_checks")
            .willReturn(
                aResponse().withStatus(404).withBody("{\"message\": \"Branch not protected\"}")));
    assertThat(lines().get(3))
        .startsWith(
            "FAIL  branch protection: main requires no status checks (GitHub answered 404)");
  }
}
