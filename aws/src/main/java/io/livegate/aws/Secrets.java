package io.livegate.aws;

import io.livegate.core.LivegateException;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.secretsmanager.SecretsManagerClient;

/**
 * Reads secrets from Secrets Manager once per container, on first use: never while a Lambda
 * initialises, so nothing secret is fetched into a SnapStart snapshot.
 */
public final class Secrets {
  private final SecretsManagerClient client;
  private final Map<String, String> cache = new ConcurrentHashMap<>();

  public Secrets(SecretsManagerClient client) {
    this.client = client;
  }

  /** Secrets read through a client that {@code aws} builds, with its dry call for priming. */
  public static Secrets of(AwsClients aws) {
    return new Secrets(
        aws.build(
            SecretsManagerClient.builder(),
            client -> client.getSecretValue(request -> request.secretId(AwsClients.PLACEHOLDER))));
  }

  public String text(String secretId) {
    return cache.computeIfAbsent(
        secretId,
        id -> {
          try {
            String value = client.getSecretValue(request -> request.secretId(id)).secretString();
            if (value == null || value.isEmpty()) {
              throw new LivegateException("the secret " + id + " holds no text");
            }
            return value;
          } catch (SdkException e) {
            throw new LivegateException("cannot read the secret " + id + ": " + e.getMessage(), e);
          }
        });
  }

  /** The value {@code supplier} gives the first time, computed then and kept. */
  public static <T> Supplier<T> memoize(Supplier<T> supplier) {
    return new Supplier<>() {
      private T value;

      @Override
      public synchronized T get() {
        if (value == null) {
          value = supplier.get();
        }
        return value;
      }
    };
  }
}
