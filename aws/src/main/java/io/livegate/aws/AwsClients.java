package io.livegate.aws;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.Supplier;
import software.amazon.awssdk.awscore.client.builder.AwsClientBuilder;
import software.amazon.awssdk.awscore.client.builder.AwsSyncClientBuilder;
import software.amazon.awssdk.http.ExecutableHttpRequest;
import software.amazon.awssdk.http.HttpExecuteRequest;
import software.amazon.awssdk.http.SdkHttpClient;
import software.amazon.awssdk.http.apache5.Apache5HttpClient;

/**
 * Builds an entry point's SDK clients with an explicit region, credentials and HTTP client, so the
 * SDK probes neither its region nor its credentials provider chain. The clients share one HTTP
 * client: one connection pool and one TLS context, set up once rather than per client. Building a
 * client opens no connection, so clients built while a Lambda initialises are safe to snapshot
 * (SnapStart).
 *
 * <p>For SnapStart's priming, a client can be built with a <em>dry call</em>: its operation with
 * placeholder arguments. {@link #prime} runs every dry call while the HTTP client refuses to send,
 * so the SDK's request path (marshalling, endpoint rules, signing) runs once before the snapshot
 * and no connection is opened.
 */
public final class AwsClients {
  /** The placeholder name, id or bucket of dry calls; never sent. */
  public static final String PLACEHOLDER = "livegate-priming";

  private final AwsSettings settings;
  private final List<Runnable> dryCalls = new ArrayList<>();
  private DryRunnableHttpClient http;

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

  /** {@link #build}, keeping {@code dryCall} for {@link #prime}. */
  public synchronized <B extends AwsClientBuilder<B, C> & AwsSyncClientBuilder<B, C>, C> C build(
      B builder, Consumer<C> dryCall) {
    C client = build(builder);
    dryCalls.add(() -> dryCall.accept(client));
    return client;
  }

  /**
   * A client built the first time it is asked for: for the clients a handler needs on some requests
   * only, which then never pay for building it, unless {@link #prime} builds it for its dry call.
   */
  public synchronized <B extends AwsClientBuilder<B, C> & AwsSyncClientBuilder<B, C>, C>
      Supplier<C> lazy(Supplier<B> builder, Consumer<C> dryCall) {
    Supplier<C> client = Secrets.memoize(() -> build(builder.get()));
    dryCalls.add(() -> dryCall.accept(client.get()));
    return client;
  }

  /**
   * Runs every dry call, each stopped by the HTTP client before it connects; anything else that a
   * dry call throws is thrown on, so a broken client fails the snapshot rather than the first
   * event.
   */
  public synchronized void prime() {
    DryRunnableHttpClient client = http();
    client.dry = true;
    try {
      for (Runnable dryCall : dryCalls) {
        try {
          dryCall.run();
          throw new IllegalStateException("a dry call returned without reaching the HTTP client");
        } catch (RuntimeException e) {
          if (!stoppedBeforeSending(e)) {
            throw e;
          }
        }
      }
    } finally {
      client.dry = false;
    }
  }

  private static boolean stoppedBeforeSending(Throwable e) {
    for (Throwable cause = e; cause != null; cause = cause.getCause()) {
      if (cause instanceof NotSent) {
        return true;
      }
    }
    return false;
  }

  /** Shared, so closing one client leaves it open for the others (the SDK's rule). */
  private DryRunnableHttpClient http() {
    if (http == null) {
      http =
          new DryRunnableHttpClient(
              Apache5HttpClient.builder()
                  .connectionTimeout(Duration.ofSeconds(3))
                  .socketTimeout(Duration.ofSeconds(30))
                  .build());
    }
    return http;
  }

  /** What the HTTP client throws for a dry call: not an I/O error, so the SDK does not retry it. */
  private static final class NotSent extends RuntimeException {
    NotSent() {
      super("a dry call, stopped before sending", null, false, false);
    }
  }

  /** The shared HTTP client, which refuses to send while a dry call runs. */
  private static final class DryRunnableHttpClient implements SdkHttpClient {
    private final SdkHttpClient delegate;
    private volatile boolean dry;

    DryRunnableHttpClient(SdkHttpClient delegate) {
      this.delegate = delegate;
    }

    @Override
    public ExecutableHttpRequest prepareRequest(HttpExecuteRequest request) {
      if (dry) {
        throw new NotSent();
      }
      return delegate.prepareRequest(request);
    }

    @Override
    public String clientName() {
      return delegate.clientName();
    }

    @Override
    public void close() {
      delegate.close();
    }
  }
}
