package io.livegate.lambdas.migrate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpServer;
import io.livegate.core.LivegateException;
import io.livegate.lambdas.Handlers;
import io.livegate.sql.testing.EmbeddedMetadb;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.http.HttpClient;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import javax.sql.DataSource;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.postgresql.ds.PGSimpleDataSource;

/**
 * The migration custom resource against a real PostgreSQL (embedded) and a real HTTP endpoint
 * standing in for CloudFormation's pre-signed ResponseURL.
 */
class MigrateHandlerTest {
  /** What the loopback "CloudFormation" received: method, content type and body of each call. */
  private record Received(String method, String contentType, JsonNode body) {}

  private final List<Received> received = new CopyOnWriteArrayList<>();
  private volatile int answerStatus = 200;
  private final HttpServer cloudFormation = startCloudFormation();
  private final HttpClient http = HttpClient.newHttpClient();

  private HttpServer startCloudFormation() {
    try {
      HttpServer server =
          HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
      server.createContext(
          "/",
          exchange -> {
            byte[] body = exchange.getRequestBody().readAllBytes();
            received.add(
                new Received(
                    exchange.getRequestMethod(),
                    exchange.getRequestHeaders().getFirst("Content-Type"),
                    Handlers.JSON.readTree(body)));
            exchange.sendResponseHeaders(answerStatus, -1);
            exchange.close();
          });
      server.start();
      return server;
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  @AfterEach
  void stop() {
    cloudFormation.stop(0);
  }

  private ObjectNode event(String requestType) {
    ObjectNode event = Handlers.JSON.createObjectNode();
    event.put("RequestType", requestType);
    event.put(
        "ResponseURL",
        "http://127.0.0.1:"
            + cloudFormation.getAddress().getPort()
            + "/cloudformation-custom-resource-response?X-Amz-Signature=abc");
    event.put(
        "StackId", "arn:aws:cloudformation:eu-west-1:123456789012:stack/livegate/0a1b2c3d-4e5f");
    event.put("RequestId", "5d478078-13e9-baf0-464a-7ef285ecc786");
    event.put("LogicalResourceId", "MetadbSchema");
    event.put("ResourceType", "Custom::LivegateMetadbSchema");
    event.putObject("ResourceProperties").put("MigrationsHash", "1234");
    if (!requestType.equals("Create")) {
      event.put("PhysicalResourceId", MigrateHandler.PHYSICAL_ID);
    }
    return event;
  }

  private static int historyRows(DataSource dataSource) throws SQLException {
    try (Connection connection = dataSource.getConnection();
        Statement statement = connection.createStatement();
        ResultSet rows = statement.executeQuery("SELECT count(*) FROM flyway_schema_history")) {
      rows.next();
      return rows.getInt(1);
    }
  }

  private static Flyway flyway(DataSource dataSource) {
    return Flyway.configure().dataSource(dataSource).locations("classpath:db/migration").load();
  }

  @Test
  void createMigratesTheEmptyDatabaseAndAnswersSuccessOnTheResponseUrl() throws Exception {
    DataSource dataSource = EmbeddedMetadb.freshDataSource();
    MigrateHandler handler = new MigrateHandler(() -> dataSource, http);

    ByteArrayOutputStream output = new ByteArrayOutputStream();
    handler.handleRequest(
        new ByteArrayInputStream(event("Create").toString().getBytes(StandardCharsets.UTF_8)),
        output,
        null);

    assertThat(flyway(dataSource).info().pending()).isEmpty();
    String version = flyway(dataSource).info().current().getVersion().getVersion();
    assertThat(received).hasSize(1);
    Received answer = received.get(0);
    assertThat(answer.method()).isEqualTo("PUT");
    assertThat(answer.contentType()).isNull();
    assertThat(answer.body().path("Status").asText()).isEqualTo("SUCCESS");
    assertThat(answer.body().path("PhysicalResourceId").asText())
        .isEqualTo(MigrateHandler.PHYSICAL_ID);
    assertThat(answer.body().path("StackId").asText()).endsWith("stack/livegate/0a1b2c3d-4e5f");
    assertThat(answer.body().path("RequestId").asText())
        .isEqualTo("5d478078-13e9-baf0-464a-7ef285ecc786");
    assertThat(answer.body().path("LogicalResourceId").asText()).isEqualTo("MetadbSchema");
    assertThat(answer.body().path("Data").path(MigrateHandler.SCHEMA_VERSION).asText())
        .isEqualTo(version);
    assertThat(Handlers.JSON.readTree(output.toByteArray())).isEqualTo(answer.body());
  }

  @Test
  void updateAndARepeatedEventChangeNothingOnceMigrated() throws Exception {
    DataSource dataSource = EmbeddedMetadb.freshDataSource();
    MigrateHandler handler = new MigrateHandler(() -> dataSource, http);
    handler.handle(event("Create"));
    int rows = historyRows(dataSource);

    handler.handle(event("Update"));
    handler.handle(event("Update"));

    assertThat(historyRows(dataSource)).isEqualTo(rows);
    assertThat(received).extracting(r -> r.body().path("Status").asText()).containsOnly("SUCCESS");
    assertThat(received.get(2).body().path("PhysicalResourceId").asText())
        .isEqualTo(MigrateHandler.PHYSICAL_ID);
  }

  @Test
  void deleteAnswersSuccessWithoutConnecting() {
    MigrateHandler handler =
        new MigrateHandler(
            () -> {
              throw new AssertionError("Delete must not touch the database");
            },
            http);

    handler.handle(event("Delete"));

    assertThat(received).hasSize(1);
    assertThat(received.get(0).body().path("Status").asText()).isEqualTo("SUCCESS");
  }

  @Test
  void anUnreachableDatabaseIsAnsweredAsFailedWithTheReason() {
    PGSimpleDataSource nowhere = new PGSimpleDataSource();
    nowhere.setServerNames(new String[] {"127.0.0.1"});
    nowhere.setPortNumbers(new int[] {1});
    nowhere.setConnectTimeout(2);
    MigrateHandler handler = new MigrateHandler(() -> nowhere, http);

    handler.handle(event("Create"));

    assertThat(received).hasSize(1);
    JsonNode answer = received.get(0).body();
    assertThat(answer.path("Status").asText()).isEqualTo("FAILED");
    assertThat(answer.path("Reason").asText()).startsWith("cannot migrate the metadb");
    assertThat(answer.path("PhysicalResourceId").asText()).isEqualTo(MigrateHandler.PHYSICAL_ID);
  }

  @Test
  void anUnknownRequestTypeIsAnsweredAsFailed() {
    MigrateHandler handler = new MigrateHandler(EmbeddedMetadb::freshDataSource, http);

    handler.handle(event("Rollback"));

    assertThat(received.get(0).body().path("Status").asText()).isEqualTo("FAILED");
    assertThat(received.get(0).body().path("Reason").asText()).contains("Rollback");
  }

  @Test
  void anEventWithoutResponseUrlIsAnErrorRatherThanASilentHang() {
    ObjectNode event = event("Create");
    event.remove("ResponseURL");
    MigrateHandler handler = new MigrateHandler(EmbeddedMetadb::freshDataSource, http);

    assertThatThrownBy(() -> handler.handle(event))
        .isInstanceOf(LivegateException.class)
        .hasMessageContaining("no ResponseURL");
  }

  @Test
  void aRefusedAnswerIsAnErrorSoLambdaRetriesTheEvent() {
    answerStatus = 403;
    MigrateHandler handler =
        new MigrateHandler(
            () -> {
              throw new AssertionError("Delete must not touch the database");
            },
            http);

    assertThatThrownBy(() -> handler.handle(event("Delete")))
        .isInstanceOf(LivegateException.class)
        .hasMessageContaining("403");
  }
}
