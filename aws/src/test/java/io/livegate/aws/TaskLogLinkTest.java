package io.livegate.aws;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import io.livegate.statemachine.RuntimeContract;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The task's log link, from a container metadata endpoint served by a JDK HTTP server with the
 * answer's shape of the ECS documentation's example (task metadata v4, container metadata).
 */
class TaskLogLinkTest {
  private static final String GROUP_LINK =
      "https://console.aws.amazon.com/cloudwatch/home?region=eu-west-1#logsV2:log-groups/log-group/"
          + "Livegate-TerraRunPlanLogs";

  private final List<String> said = new ArrayList<>();
  private HttpServer server;

  private String serve(int status, String body) throws IOException {
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext(
        "/v4/container-id",
        exchange -> {
          byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
          exchange.sendResponseHeaders(status, bytes.length);
          exchange.getResponseBody().write(bytes);
          exchange.close();
        });
    server.start();
    return "http://127.0.0.1:" + server.getAddress().getPort() + "/v4/container-id";
  }

  @AfterEach
  void stop() {
    if (server != null) {
      server.stop(0);
    }
  }

  private static String container(String logDriver) {
    return "{\"DockerId\": \"ea32192c\", \"Name\": \"terra-run\", \"Labels\":"
        + " {\"com.amazonaws.ecs.task-arn\":"
        + " \"arn:aws:ecs:eu-west-1:123456789012:task/livegate/8f03e41243824aea923aca126495f665\"},"
        + " \"LogDriver\": \""
        + logDriver
        + "\", \"LogOptions\": {\"awslogs-group\": \"/livegate/terra-run-plan\","
        + " \"awslogs-region\": \"eu-west-1\", \"awslogs-stream\":"
        + " \"terra-run-plan/terra-run/8f03e41243824aea923aca126495f665\"}}";
  }

  @Test
  void onEcsTheLinkIsTheConsolePageOfTheTasksOwnStream() throws IOException {
    String link =
        TaskLogLink.of(
            Map.of(
                TaskLogLink.METADATA,
                serve(200, container("awslogs")),
                RuntimeContract.Tasks.LOG_URL,
                GROUP_LINK),
            said::add);

    assertThat(link)
        .isEqualTo(
            "https://eu-west-1.console.aws.amazon.com/cloudwatch/home?region=eu-west-1"
                + "#logsV2:log-groups/log-group/$252Flivegate$252Fterra-run-plan"
                + "/log-events/terra-run-plan$252Fterra-run$252F8f03e41243824aea923aca126495f665");
    assertThat(said).isEmpty();
  }

  @Test
  void withoutAMetadataEndpointTheLinkIsTheConfiguredOne() {
    assertThat(TaskLogLink.of(Map.of(RuntimeContract.Tasks.LOG_URL, GROUP_LINK), said::add))
        .isEqualTo(GROUP_LINK);
    assertThat(TaskLogLink.of(Map.of(), said::add)).isEmpty();
    assertThat(said).isEmpty();
  }

  @Test
  void aContainerThatDoesNotLogToAwslogsFallsBackToTheConfiguredLinkAndSaysWhy()
      throws IOException {
    String link =
        TaskLogLink.of(
            Map.of(
                TaskLogLink.METADATA,
                serve(200, container("json-file")),
                RuntimeContract.Tasks.LOG_URL,
                GROUP_LINK),
            said::add);

    assertThat(link).isEqualTo(GROUP_LINK);
    assertThat(said)
        .containsExactly(
            "the container does not log to an awslogs stream; the log link is the log group's");
  }

  @Test
  void anEndpointThatFailsFallsBackToTheConfiguredLinkAndSaysWhy() throws IOException {
    String link =
        TaskLogLink.of(
            Map.of(
                TaskLogLink.METADATA, serve(500, "{}"), RuntimeContract.Tasks.LOG_URL, GROUP_LINK),
            said::add);

    assertThat(link).isEqualTo(GROUP_LINK);
    assertThat(said)
        .containsExactly(
            "the container metadata endpoint answered 500; the log link is the log group's");
  }
}
