package io.livegate.lambdas.aws;

import java.time.Duration;
import software.amazon.awssdk.awscore.client.builder.AwsClientBuilder;
import software.amazon.awssdk.awscore.client.builder.AwsSyncClientBuilder;
import software.amazon.awssdk.http.apache5.Apache5HttpClient;

/**
 * Builds SDK clients with an explicit HTTP client, region and credentials. Building a client opens
 * no connection, so clients built while a Lambda initialises are safe to snapshot (SnapStart).
 */
public final class AwsClients {
  private AwsClients() {}

  public static <B extends AwsClientBuilder<B, C> & AwsSyncClientBuilder<B, C>, C> C build(
      B builder, AwsSettings settings) {
    builder
        .region(settings.region())
        .credentialsProvider(settings.credentials())
        .httpClientBuilder(
            Apache5HttpClient.builder()
                .connectionTimeout(Duration.ofSeconds(3))
                .socketTimeout(Duration.ofSeconds(30)));
    settings.endpoint().ifPresent(builder::endpointOverride);
    return builder.build();
  }
}
