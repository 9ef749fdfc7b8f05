package io.livegate.aws;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.livegate.core.LivegateException;
import java.net.URI;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsCredentials;
import software.amazon.awssdk.auth.credentials.AwsSessionCredentials;
import software.amazon.awssdk.auth.credentials.ContainerCredentialsProvider;
import software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider;
import software.amazon.awssdk.regions.Region;

/** Reading the AWS settings from an environment; nothing here talks to AWS. */
class AwsSettingsTest {
  private static Map<String, String> lambdaEnvironment() {
    Map<String, String> environment = new HashMap<>();
    environment.put("AWS_REGION", "eu-west-1");
    environment.put("AWS_ACCESS_KEY_ID", "AKIDEXAMPLE");
    environment.put("AWS_SECRET_ACCESS_KEY", "secret-example");
    return environment;
  }

  @Test
  void anOperatorsKeysRegionAndEndpointOverrideAreUsedAsTheyAre() {
    Map<String, String> environment = lambdaEnvironment();
    environment.put(AwsSettings.ENDPOINT, "http://localhost:5000");

    AwsSettings settings = AwsSettings.forOperator(environment);

    assertThat(settings.region()).isEqualTo(Region.EU_WEST_1);
    assertThat(settings.credentials().resolveCredentials().accessKeyId()).isEqualTo("AKIDEXAMPLE");
    assertThat(settings.endpoint()).contains(URI.create("http://localhost:5000"));
  }

  @Test
  void withoutKeysAnOperatorGetsTheSdksDefaultCredentialsChain() {
    AwsSettings settings = AwsSettings.forOperator(Map.of("AWS_REGION", "eu-west-1"));

    assertThat(settings.credentials()).isInstanceOf(DefaultCredentialsProvider.class);
  }

  @Test
  void lambdasKeysAndRegionAreUsedAsTheyAre() {
    Map<String, String> environment = lambdaEnvironment();
    environment.put("AWS_SESSION_TOKEN", "session-example");

    AwsSettings settings = AwsSettings.from(environment);

    assertThat(settings.region()).isEqualTo(Region.EU_WEST_1);
    AwsCredentials credentials = settings.credentials().resolveCredentials();
    assertThat(credentials).isInstanceOf(AwsSessionCredentials.class);
    assertThat(credentials.accessKeyId()).isEqualTo("AKIDEXAMPLE");
    assertThat(((AwsSessionCredentials) credentials).sessionToken()).isEqualTo("session-example");
    assertThat(settings.endpoint()).isEmpty();
  }

  @Test
  void anEcsTaskUsesItsRolesEndpoint() {
    AwsSettings settings =
        AwsSettings.from(
            Map.of(
                "AWS_REGION", "eu-west-1",
                "AWS_CONTAINER_CREDENTIALS_RELATIVE_URI", "/v2/credentials/example"));

    assertThat(settings.credentials()).isInstanceOf(ContainerCredentialsProvider.class);
  }

  @Test
  void aMissingRegionIsNamed() {
    Map<String, String> environment = lambdaEnvironment();
    environment.remove("AWS_REGION");

    assertThatThrownBy(() -> AwsSettings.from(environment))
        .isInstanceOf(LivegateException.class)
        .hasMessage("the environment variable AWS_REGION is not set");
  }

  @Test
  void missingCredentialsNameTheVariablesLookedFor() {
    assertThatThrownBy(() -> AwsSettings.from(Map.of("AWS_REGION", "eu-west-1")))
        .isInstanceOf(LivegateException.class)
        .hasMessageContaining("AWS_ACCESS_KEY_ID")
        .hasMessageContaining("AWS_CONTAINER_CREDENTIALS_RELATIVE_URI");
  }

  @Test
  void anEndpointOverrideIsAUrlOrNamedInTheError() {
    Map<String, String> environment = lambdaEnvironment();
    environment.put(AwsSettings.ENDPOINT, "http://localhost:5000");
    assertThat(AwsSettings.from(environment).endpoint())
        .contains(URI.create("http://localhost:5000"));

    environment.put(AwsSettings.ENDPOINT, " ");
    assertThat(AwsSettings.from(environment).endpoint()).isEmpty();

    for (String bad : List.of("http://bad host:5000", "localhost:5000", "moto")) {
      environment.put(AwsSettings.ENDPOINT, bad);
      assertThatThrownBy(() -> AwsSettings.from(environment))
          .isInstanceOf(LivegateException.class)
          .hasMessage(
              "LIVEGATE_AWS_ENDPOINT must be a URL such as http://localhost:5000, not " + bad);
    }
  }
}
