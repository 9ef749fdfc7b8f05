package io.livegate.aws;

import io.livegate.core.LivegateException;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.Map;
import java.util.Optional;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.auth.credentials.AwsSessionCredentials;
import software.amazon.awssdk.auth.credentials.ContainerCredentialsProvider;
import software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.regions.providers.DefaultAwsRegionProviderChain;

/**
 * Where and as whom the AWS clients talk, decided once from the entry point's environment: the
 * region, the credentials (Lambda's environment keys, or the ECS task role's endpoint), and an
 * optional endpoint override ({@value #ENDPOINT}, for moto in tests). Choosing explicitly skips the
 * SDK's provider-chain probing at cold start.
 */
public record AwsSettings(
    Region region, AwsCredentialsProvider credentials, Optional<URI> endpoint) {
  public static final String ENDPOINT = "LIVEGATE_AWS_ENDPOINT";

  public static AwsSettings from(Map<String, String> environment) {
    String region = Env.required(environment, "AWS_REGION");
    return new AwsSettings(Region.of(region), credentials(environment), endpoint(environment));
  }

  /**
   * For a command an operator runs on their own machine ({@code livegate doctor --aws}): the access
   * keys in {@code environment} when it has them, else the SDK's default chains (profiles, SSO, the
   * region of the AWS config files), and the optional endpoint override.
   */
  public static AwsSettings forOperator(Map<String, String> environment) {
    String region = environment.get("AWS_REGION");
    AwsCredentialsProvider credentials =
        environment.containsKey("AWS_ACCESS_KEY_ID")
            ? credentials(environment)
            : DefaultCredentialsProvider.builder().build();
    try {
      return new AwsSettings(
          region == null || region.isBlank()
              ? DefaultAwsRegionProviderChain.builder().build().getRegion()
              : Region.of(region),
          credentials,
          endpoint(environment));
    } catch (SdkClientException e) {
      throw new LivegateException(
          "no AWS region: set AWS_REGION, or a region in the AWS config file's profile");
    }
  }

  private static Optional<URI> endpoint(Map<String, String> environment) {
    return Optional.ofNullable(environment.get(ENDPOINT))
        .filter(value -> !value.isBlank())
        .map(AwsSettings::endpoint);
  }

  private static URI endpoint(String value) {
    URI uri;
    try {
      uri = new URI(value);
    } catch (URISyntaxException e) {
      uri = null;
    }
    if (uri == null || uri.getScheme() == null || uri.getHost() == null) {
      throw new LivegateException(
          ENDPOINT + " must be a URL such as http://localhost:5000, not " + value);
    }
    return uri;
  }

  private static AwsCredentialsProvider credentials(Map<String, String> environment) {
    String key = environment.get("AWS_ACCESS_KEY_ID");
    String secret = environment.get("AWS_SECRET_ACCESS_KEY");
    if (key != null && secret != null) {
      String session = environment.get("AWS_SESSION_TOKEN");
      return StaticCredentialsProvider.create(
          session == null
              ? AwsBasicCredentials.create(key, secret)
              : AwsSessionCredentials.create(key, secret, session));
    }
    if (environment.containsKey("AWS_CONTAINER_CREDENTIALS_RELATIVE_URI")
        || environment.containsKey("AWS_CONTAINER_CREDENTIALS_FULL_URI")) {
      return ContainerCredentialsProvider.builder().build();
    }
    throw new LivegateException(
        "no AWS credentials in the environment: expected AWS_ACCESS_KEY_ID (Lambda) or"
            + " AWS_CONTAINER_CREDENTIALS_RELATIVE_URI (ECS)");
  }
}
