package io.livegate.lambdas.aws;

import java.time.Duration;
import java.util.function.Supplier;
import software.amazon.awssdk.awscore.client.builder.AwsClientBuilder;
import software.amazon.awssdk.awscore.client.builder.AwsSyncClientBuilder;
import software.amazon.awssdk.http.SdkHttpClient;
import software.amazon.awssdk.http.apache5.Apache5HttpClient;

/**
 * Builds an entry point's SDK clients with an explicit region, credentials and HTTP client, so the
 * SDK probes neither its region nor its credentials provider chain. The clients share one HTTP
 * client: one connection pool and one TLS context, set up once rather than per client. Building a
 * client opens no connection, so clients built while a Lambda initialises are safe to snapshot
 * (SnapStart).
 */
public final class AwsClients {
  private final AwsSettings settings;
  private SdkHttpClient http;

  public AwsClients(AwsSettings settings) {
    this.settings = settings;
  }

  public synchronized <B extends AwsClientBuilder<B, C> & AwsSyncClientBuilder<B, C>, C> C build(
      B builder) {
    builder
        .region(settings.region())
        .credentialsProvider(settings.credentials())
        .httpClient(http());
    settings.endpoint().ifPresent(builder::endpointOverride);
    return builder.build();
  }

  /**
   * A client built the first time it is asked for: for the clients a handler needs on some requests
   * only, which then never pay for building it.
   */
  public <B extends AwsClientBuilder<B, C> & AwsSyncClientBuilder<B, C>, C> Supplier<C> lazy(
      Supplier<B> builder) {
    return Secrets.memoize(() -> build(builder.get()));
  }

  /** Shared, so closing one client leaves it open for the others (the SDK's rule). */
  private SdkHttpClient http() {
    if (http == null) {
      http =
          Apache5HttpClient.builder()
              .connectionTimeout(Duration.ofSeconds(3))
              .socketTimeout(Duration.ofSeconds(30))
              .build();
    }
    return http;
  }
}
