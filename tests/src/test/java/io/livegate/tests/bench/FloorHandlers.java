package io.livegate.tests.bench;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.RequestStreamHandler;
import io.livegate.aws.AwsClients;
import io.livegate.aws.AwsSettings;
import io.livegate.statemachine.RuntimeContract;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.security.NoSuchAlgorithmException;
import javax.net.ssl.SSLContext;
import software.amazon.awssdk.services.secretsmanager.SecretsManagerClient;

/**
 * Two cold-start floors, measured beside the handlers: what any handler that calls AWS pays before
 * its own work, so that the handlers' figures can be read against what no handler can avoid.
 */
final class FloorHandlers {
  private FloorHandlers() {}

  /**
   * The JVM's default TLS context, with the JDK's trust store: set up once by every HTTPS client in
   * the JVM (the SDK's HTTP client builds its own the same way), and needed in production, where
   * every AWS endpoint is HTTPS.
   */
  static final class Tls implements RequestStreamHandler {
    @Override
    public void handleRequest(InputStream input, OutputStream output, Context context)
        throws IOException {
      input.readAllBytes();
      try {
        String protocol = SSLContext.getDefault().getProtocol();
        output.write(("{\"tls\":\"" + protocol + "\"}").getBytes(StandardCharsets.UTF_8));
      } catch (NoSuchAlgorithmException e) {
        throw new IllegalStateException(e);
      }
    }
  }

  /**
   * One SDK client built as every handler builds its clients ({@link AwsClients}), and one call:
   * {@code GetSecretValue} of the vote-link key, the first call of both approval handlers.
   */
  static final class Sdk implements RequestStreamHandler {
    private final SecretsManagerClient secrets =
        new AwsClients(AwsSettings.from(System.getenv())).build(SecretsManagerClient.builder());

    @Override
    public void handleRequest(InputStream input, OutputStream output, Context context)
        throws IOException {
      input.readAllBytes();
      String key =
          secrets
              .getSecretValue(
                  r -> r.secretId(System.getenv(RuntimeContract.Approval.VOTE_KEY_SECRET)))
              .secretString();
      output.write(("{\"keyLength\":" + key.length() + "}").getBytes(StandardCharsets.UTF_8));
    }
  }
}
