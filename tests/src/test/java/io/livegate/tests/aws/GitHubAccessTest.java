package io.livegate.tests.aws;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.matching;
import static com.github.tomakehurst.wiremock.client.WireMock.matchingJsonPath;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.wireMockConfig;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.github.tomakehurst.wiremock.junit5.WireMockExtension;
import io.livegate.aws.AwsClients;
import io.livegate.aws.AwsSettings;
import io.livegate.aws.GitHubAccess;
import io.livegate.aws.Secrets;
import io.livegate.core.LivegateException;
import io.livegate.core.deploy.CommitStatusPublisher.State;
import io.livegate.statemachine.RuntimeContract;
import io.livegate.tests.moto.MotoServer;
import java.security.KeyPairGenerator;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import software.amazon.awssdk.services.secretsmanager.SecretsManagerClient;
import software.amazon.awssdk.services.ssm.SsmClient;
import software.amazon.awssdk.services.ssm.model.ParameterType;

/**
 * From the entry point's environment to a status on GitHub: the token (or a GitHub App's
 * credentials, traded for an installation token) read from Secrets Manager or an SSM SecureString
 * in moto, sent to a WireMock stand-in for the API URL. GitHubAppTest checks the App's JWT itself.
 */
@Tag("moto")
class GitHubAccessTest {
  @RegisterExtension static final MotoServer MOTO = new MotoServer();

  @RegisterExtension
  static final WireMockExtension GITHUB =
      WireMockExtension.newInstance().options(wireMockConfig().dynamicPort()).build();

  private static final String SHA = "0123456789abcdef0123456789abcdef01234567";
  private static final String STATUSES = "/repos/acme/live/statuses/" + SHA;
  private static final String ACCESS_TOKENS = "/app/installations/4567/access_tokens";
  private static final String CHECK_RUNS = "/repos/acme/live/check-runs";
  private static final String CHECK_RUNS_OF_SHA = "/repos/acme/live/commits/" + SHA + "/check-runs";

  private final List<String> log = new ArrayList<>();
  private Map<String, String> environment;

  @BeforeEach
  void environment() {
    MOTO.reset();
    GITHUB.stubFor(post(STATUSES).willReturn(aResponse().withStatus(201)));
    environment = MOTO.wiringEnvironment();
    environment.put(RuntimeContract.GitHub.API_URL, GITHUB.baseUrl());
  }

  @Test
  void aTokenFromSecretsManagerAuthorisesTheStatus() {
    try (SecretsManagerClient secrets = MOTO.client(SecretsManagerClient.builder())) {
      String arn =
          secrets
              .createSecret(r -> r.name("livegate/github").secretString("ghs_from_secret"))
              .arn();
      environment.put(RuntimeContract.GitHub.TOKEN_SECRET, arn);
    }

    access()
        .statuses(log::add)
        .publish("acme/live", SHA, "livegate/deploy", State.PENDING, "d", "");

    GITHUB.verify(
        postRequestedFor(urlEqualTo(STATUSES))
            .withHeader("Authorization", equalTo("Bearer ghs_from_secret")));
    assertThat(log).isEmpty();
  }

  @Test
  void aGitHubAppInTheSecretMintsAnInstallationTokenForTheRepositoryAndWritesCheckRunsWithIt()
      throws Exception {
    KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
    generator.initialize(2048);
    String pem =
        "-----BEGIN PRIVATE KEY-----\n"
            + Base64.getMimeEncoder()
                .encodeToString(generator.generateKeyPair().getPrivate().getEncoded())
            + "\n-----END PRIVATE KEY-----\n";
    String app =
        new ObjectMapper()
            .createObjectNode()
            .put("appId", "12345")
            .put("installationId", 4567)
            .put("privateKey", pem)
            .toString();
    try (SecretsManagerClient secrets = MOTO.client(SecretsManagerClient.builder())) {
      environment.put(
          RuntimeContract.GitHub.TOKEN_SECRET,
          secrets.createSecret(r -> r.name("livegate/github").secretString(app)).arn());
    }
    environment.put(RuntimeContract.Webhook.REPOSITORY, "acme/live");
    GITHUB.stubFor(
        post(ACCESS_TOKENS)
            .willReturn(
                aResponse()
                    .withStatus(201)
                    .withHeader("Content-Type", "application/json")
                    .withBody(
                        """
                        {"token": "ghs_16C7e42F292c6912E7710c838347Ae178B4a",
                         "expires_at": "2099-07-11T22:14:10Z",
                         "permissions": {"contents": "read", "checks": "write",
                                         "pull_requests": "write", "issues": "write"},
                         "repository_selection": "selected"}
                        """)));

    GITHUB.stubFor(
        get(urlPathEqualTo(CHECK_RUNS_OF_SHA))
            .willReturn(
                aResponse().withStatus(200).withBody("{\"total_count\": 0, \"check_runs\": []}")));
    GITHUB.stubFor(
        post(CHECK_RUNS).willReturn(aResponse().withStatus(201).withBody("{\"id\": 4}")));

    GitHubAccess access = access();
    access.statuses(log::add).publish("acme/live", SHA, "livegate/deploy", State.PENDING, "d", "");
    access.statuses(log::add).publish("acme/live", SHA, "livegate/deploy", State.SUCCESS, "d", "");

    assertThat(log).isEmpty();
    GITHUB.verify(
        1,
        postRequestedFor(urlEqualTo(ACCESS_TOKENS))
            .withHeader("Authorization", matching("Bearer [\\w-]+\\.[\\w-]+\\.[\\w-]+"))
            .withRequestBody(matchingJsonPath("$.repositories[0]", equalTo("live"))));
    // As an App, livegate writes check runs, which no token can, instead of commit statuses.
    GITHUB.verify(
        2,
        postRequestedFor(urlEqualTo(CHECK_RUNS))
            .withHeader(
                "Authorization", equalTo("Bearer ghs_16C7e42F292c6912E7710c838347Ae178B4a")));
    GITHUB.verify(0, postRequestedFor(urlEqualTo(STATUSES)));
    assertThat(access.token().orElseThrow().get())
        .isEqualTo("ghs_16C7e42F292c6912E7710c838347Ae178B4a");
  }

  @Test
  void aGitHubAppSecretWithoutItsKeyIsAnErrorNamingTheSecret() {
    String arn;
    try (SecretsManagerClient secrets = MOTO.client(SecretsManagerClient.builder())) {
      arn =
          secrets
              .createSecret(
                  r ->
                      r.name("livegate/github")
                          .secretString("{\"appId\": \"12345\", \"installationId\": 4567}"))
              .arn();
    }
    environment.put(RuntimeContract.GitHub.TOKEN_SECRET, arn);

    assertThatThrownBy(() -> access().token().orElseThrow().get())
        .isInstanceOf(LivegateException.class)
        .hasMessage(
            "the secret "
                + arn
                + " holds a GitHub App's JSON without privateKey (docs/github-app.md)");
  }

  @Test
  void aTokenFromAnSsmSecureStringAuthorisesTheStatus() {
    try (SsmClient ssm = MOTO.client(SsmClient.builder())) {
      ssm.putParameter(
          r ->
              r.name("/livegate/github-token")
                  .type(ParameterType.SECURE_STRING)
                  .value("ghs_from_parameter"));
    }
    environment.put(RuntimeContract.GitHub.TOKEN_PARAMETER, "/livegate/github-token");

    access()
        .statuses(log::add)
        .publish("acme/live", SHA, "livegate/deploy", State.PENDING, "d", "");

    GITHUB.verify(
        postRequestedFor(urlEqualTo(STATUSES))
            .withHeader("Authorization", equalTo("Bearer ghs_from_parameter")));
  }

  @Test
  void withoutATokenStatusesAreLoggedAndNoCommentIsWritten() {
    GitHubAccess access = access();

    access.statuses(log::add).publish("acme/live", SHA, "livegate/deploy", State.FAILURE, "d", "");

    GITHUB.verify(0, postRequestedFor(urlEqualTo(STATUSES)));
    assertThat(log).containsExactly("status livegate/deploy on acme/live@" + SHA + ": failure (d)");
    assertThat(access.planComments(log::add)).isEmpty();
    assertThat(access.token()).isEmpty();
  }

  @Test
  void bothTokenSourcesOrABadApiUrlAreRefused() {
    environment.put(
        RuntimeContract.GitHub.TOKEN_SECRET, "arn:aws:secretsmanager:us-east-1:1:secret:x");
    environment.put(RuntimeContract.GitHub.TOKEN_PARAMETER, "/x");
    assertThatThrownBy(this::access)
        .isInstanceOf(LivegateException.class)
        .hasMessageContaining("not both");

    environment.remove(RuntimeContract.GitHub.TOKEN_PARAMETER);
    environment.put(RuntimeContract.GitHub.API_URL, "api.github.com");
    assertThatThrownBy(this::access)
        .isInstanceOf(LivegateException.class)
        .hasMessageContaining(RuntimeContract.GitHub.API_URL + " must be a URL");
  }

  private GitHubAccess access() {
    AwsClients aws = new AwsClients(AwsSettings.from(environment));
    return GitHubAccess.from(
        environment,
        new Secrets(aws.build(SecretsManagerClient.builder())),
        () -> aws.build(SsmClient.builder()));
  }
}
