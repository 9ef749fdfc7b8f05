package io.livegate.tests.aws;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.wireMockConfig;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.github.tomakehurst.wiremock.junit5.WireMockExtension;
import io.livegate.aws.AwsClients;
import io.livegate.aws.AwsSettings;
import io.livegate.aws.GitHubAccess;
import io.livegate.aws.Secrets;
import io.livegate.core.LivegateException;
import io.livegate.core.deploy.CommitStatusPublisher.State;
import io.livegate.statemachine.RuntimeContract;
import io.livegate.tests.moto.MotoServer;
import java.util.ArrayList;
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
 * From the entry point's environment to a status on GitHub: the token read from Secrets Manager or
 * an SSM SecureString in moto, sent to a WireMock stand-in for the API URL.
 */
@Tag("moto")
class GitHubAccessTest {
  @RegisterExtension static final MotoServer MOTO = new MotoServer();

  @RegisterExtension
  static final WireMockExtension GITHUB =
      WireMockExtension.newInstance().options(wireMockConfig().dynamicPort()).build();

  private static final String SHA = "0123456789abcdef0123456789abcdef01234567";
  private static final String STATUSES = "/repos/acme/live/statuses/" + SHA;

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
