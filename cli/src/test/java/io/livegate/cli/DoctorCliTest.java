package io.livegate.cli;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.matching;
import static com.github.tomakehurst.wiremock.client.WireMock.okJson;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.wireMockConfig;
import static org.assertj.core.api.Assertions.assertThat;

import com.github.tomakehurst.wiremock.junit5.WireMockExtension;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPairGenerator;
import java.util.Base64;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** {@code livegate doctor} against a WireMock GitHub: one line per check, exit 1 on a failure. */
class DoctorCliTest {
  @RegisterExtension
  static final WireMockExtension GITHUB =
      WireMockExtension.newInstance().options(wireMockConfig().dynamicPort()).build();

  private static final String URL = "http://vm.example.com:8741/webhook";

  @Test
  void doctorPrintsEveryCheckWithItsFixAndFailsWhenTheTrunkDoesNotRequireTheMergeLock() {
    GITHUB.stubFor(
        get("/repos/acme/live").willReturn(okJson("{\"permissions\": {\"push\": true}}")));
    GITHUB.stubFor(
        get("/repos/acme/live/hooks")
            .willReturn(
                okJson(
                    "[{\"id\": 3, \"active\": true, \"events\": [\"pull_request\"], \"config\":"
                        + " {\"url\": \""
                        + URL
                        + "\", \"content_type\": \"json\", \"secret\": \"********\"}}]")));
    GITHUB.stubFor(
        get("/repos/acme/live/branches/main/protection/required_status_checks")
            .willReturn(
                aResponse().withStatus(404).withBody("{\"message\": \"Branch not protected\"}")));

    CliRun doctor =
        CliRun.inEnvironment(
            Map.of("LIVEGATE_GITHUB_TOKEN", "ghs_token"),
            "doctor",
            "--repository",
            "acme/live",
            "--webhook-url",
            URL,
            "--github-api",
            GITHUB.baseUrl());

    assertThat(doctor.exitCode()).as(doctor.toString()).isEqualTo(1);
    assertThat(doctor.out())
        .isEqualTo(
            "ok    token: reads acme/live\n"
                + "ok    statuses and comments: the token may write to acme/live\n"
                + "ok    webhook: hook 3 posts pull requests to "
                + URL
                + "\n"
                + "FAIL  branch protection: main requires no status checks (GitHub answered 404);"
                + " fix: protect main and require the livegate/merge-lock status check, so that a"
                + " merge waits for the deployment before it\n");
  }

  @Test
  void doctorWithoutATokenSaysWhereItGoes() {
    CliRun doctor = CliRun.of("doctor", "--repository", "acme/live", "--webhook-url", URL);

    assertThat(doctor.exitCode()).isEqualTo(1);
    assertThat(doctor.err())
        .isEqualTo(
            "livegate: livegate doctor needs the GitHub token in LIVEGATE_GITHUB_TOKEN, or a"
                + " GitHub App (--github-app-id, --github-app-installation-id,"
                + " --github-app-key-file)\n");
  }

  @Test
  void doctorWithAGitHubAppChecksTheAppsJwtFirstAndStopsWhenGitHubRefusesIt() throws Exception {
    GITHUB.stubFor(
        get("/app")
            .withHeader("Authorization", matching("Bearer [^.]+\\.[^.]+\\.[^.]+"))
            .willReturn(
                aResponse()
                    .withStatus(401)
                    .withBody("{\"message\": \"A JSON web token could not be decoded\"}")));
    KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
    generator.initialize(2048);
    Path key = Files.createTempFile("app", ".pem");
    Files.writeString(
        key,
        "-----BEGIN PRIVATE KEY-----\n"
            + Base64.getMimeEncoder()
                .encodeToString(generator.generateKeyPair().getPrivate().getEncoded())
            + "\n-----END PRIVATE KEY-----\n");

    CliRun doctor =
        CliRun.of(
            "doctor",
            "--repository",
            "acme/live",
            "--webhook-url",
            URL,
            "--github-api",
            GITHUB.baseUrl(),
            "--github-app-id",
            "Iv23liTestClientId",
            "--github-app-installation-id",
            "4567",
            "--github-app-key-file",
            key.toString());

    assertThat(doctor.exitCode()).as(doctor.toString()).isEqualTo(1);
    assertThat(doctor.out())
        .startsWith("FAIL  app: GitHub refused the App's JWT (GitHub answered 401); fix: ");
    Files.delete(key);
  }
}
