package io.livegate.lambdas.migrate;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.RequestStreamHandler;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.livegate.aws.AwsClients;
import io.livegate.aws.AwsSettings;
import io.livegate.aws.MetadbSource;
import io.livegate.aws.Secrets;
import io.livegate.core.LivegateException;
import io.livegate.lambdas.Handlers;
import io.livegate.sql.Metadb;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.function.Supplier;
import javax.sql.DataSource;
import software.amazon.awssdk.services.secretsmanager.SecretsManagerClient;

/**
 * Migrates the metadb when livegate itself is deployed: the handler of a CloudFormation custom
 * resource. On Create and Update it runs the Flyway migrations ({@link Metadb#open}), which are
 * idempotent, so a repeated or retried event changes nothing. Delete leaves the schema alone: the
 * data goes only with the database. Every outcome, a failure included, is answered on the event's
 * pre-signed {@code ResponseURL}, so a deploy fails with the reason instead of waiting an hour.
 *
 * <p>Environment: the metadb's, see {@link MetadbSource}, and {@code AWS_REGION}.
 */
public final class MigrateHandler implements RequestStreamHandler {
  /** The custom resource's physical id: one schema per stack, so it never changes. */
  public static final String PHYSICAL_ID = "livegate-metadb-schema";

  /** The answer's {@code Data} attribute with the schema version after migrating. */
  public static final String SCHEMA_VERSION = "SchemaVersion";

  /** CloudFormation refuses answers over 4096 bytes; the reason is cut well below that. */
  static final int MAX_REASON = 1024;

  private final Supplier<DataSource> dataSource;
  private final HttpClient http;

  /** The Lambda runtime's constructor: the pool is built on the first event, not during init. */
  public MigrateHandler() {
    this(
        Secrets.memoize(
            () -> {
              Map<String, String> environment = System.getenv();
              return MetadbSource.dataSource(
                  environment,
                  new Secrets(
                      new AwsClients(AwsSettings.from(environment))
                          .build(SecretsManagerClient.builder())));
            }),
        HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build());
  }

  public MigrateHandler(Supplier<DataSource> dataSource, HttpClient http) {
    this.dataSource = dataSource;
    this.http = http;
  }

  @Override
  public void handleRequest(InputStream input, OutputStream output, Context context)
      throws IOException {
    ObjectNode answer = handle(Handlers.read(input, "the custom resource event"));
    Handlers.write(output, answer);
    Handlers.log(context, answer);
  }

  /**
   * Handles one event and sends the answer to its {@code ResponseURL}.
   *
   * @return the answer sent
   * @throws LivegateException when the event has no {@code ResponseURL} or the answer cannot be
   *     delivered: then Lambda's retry delivers it (migrating again changes nothing)
   */
  public ObjectNode handle(JsonNode event) {
    String responseUrl = event.path("ResponseURL").asText("");
    if (responseUrl.isBlank()) {
      throw new LivegateException("the custom resource event has no ResponseURL: " + event);
    }
    ObjectNode answer = Handlers.JSON.createObjectNode();
    answer.put("StackId", event.path("StackId").asText());
    answer.put("RequestId", event.path("RequestId").asText());
    answer.put("LogicalResourceId", event.path("LogicalResourceId").asText());
    answer.put("PhysicalResourceId", event.path("PhysicalResourceId").asText(PHYSICAL_ID));
    String requestType = event.path("RequestType").asText("");
    try {
      switch (requestType) {
        case "Create", "Update" -> {
          String version = migrate();
          answer.put("Status", "SUCCESS");
          answer.put("Reason", "the metadb schema is at version " + version);
          answer.putObject("Data").put(SCHEMA_VERSION, version);
        }
        case "Delete" -> {
          answer.put("Status", "SUCCESS");
          answer.put("Reason", "the schema stays with the database");
        }
        default -> {
          answer.put("Status", "FAILED");
          answer.put("Reason", "unknown RequestType '" + requestType + "'");
        }
      }
    } catch (RuntimeException e) {
      answer.put("Status", "FAILED");
      answer.put("Reason", cut(String.valueOf(e.getMessage())));
    }
    send(responseUrl, answer);
    return answer;
  }

  private String migrate() {
    Metadb metadb = Metadb.open(dataSource.get());
    return metadb
        .jdbi()
        .withHandle(
            handle ->
                handle
                    .createQuery(
                        "SELECT version FROM flyway_schema_history"
                            + " WHERE success AND version IS NOT NULL"
                            + " ORDER BY installed_rank DESC LIMIT 1")
                    .mapTo(String.class)
                    .findOne()
                    .orElse("none"));
  }

  private void send(String responseUrl, ObjectNode answer) {
    HttpRequest request;
    try {
      // A pre-signed S3 URL: signed without a Content-Type, so none may be sent.
      request =
          HttpRequest.newBuilder(URI.create(responseUrl))
              .timeout(Duration.ofSeconds(30))
              .PUT(HttpRequest.BodyPublishers.ofString(answer.toString(), StandardCharsets.UTF_8))
              .build();
    } catch (IllegalArgumentException e) {
      throw new LivegateException("the ResponseURL is not a URL: " + responseUrl, e);
    }
    HttpResponse<String> response;
    try {
      response = http.send(request, HttpResponse.BodyHandlers.ofString());
    } catch (IOException e) {
      throw new LivegateException("cannot answer CloudFormation: " + e.getMessage(), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new LivegateException("interrupted while answering CloudFormation", e);
    }
    if (response.statusCode() / 100 != 2) {
      throw new LivegateException(
          "CloudFormation's ResponseURL answered "
              + response.statusCode()
              + ": "
              + response.body());
    }
  }

  private static String cut(String reason) {
    return reason.length() > MAX_REASON ? reason.substring(0, MAX_REASON) + "…" : reason;
  }
}
