package io.livegate.aws;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.livegate.core.Jackson;
import io.livegate.statemachine.RuntimeContract;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.function.Consumer;

/**
 * The link that statuses, vote mail and plan comments give to an ECS task's log: the CloudWatch
 * console's page of the task's own log stream, not of the task definition's whole log group, so
 * that whoever follows it sees this run and no other.
 *
 * <p>The task learns its stream from the ECS container metadata endpoint (version 4, at {@value
 * #METADATA}), whose container answer names the awslogs group, region and stream ({@code
 * prefix/container/task-id}). Where there is no endpoint (a local run, a test) or it does not
 * answer with an awslogs stream, the link is {@value RuntimeContract.Tasks#LOG_URL} as configured
 * (the CDK app sets the log group's page), or none.
 */
public final class TaskLogLink {
  /** The environment variable Fargate sets to the container's metadata endpoint. */
  public static final String METADATA = "ECS_CONTAINER_METADATA_URI_V4";

  private static final ObjectMapper JSON = Jackson.MAPPER;
  private static final Duration TIMEOUT = Duration.ofSeconds(2);

  private TaskLogLink() {}

  /**
   * The task's log link.
   *
   * @param say where a metadata endpoint that cannot be read is reported (the link then falls back)
   */
  public static String of(Map<String, String> environment, Consumer<String> say) {
    String configured = Env.optional(environment, RuntimeContract.Tasks.LOG_URL, "");
    String metadata = environment.get(METADATA);
    if (metadata == null || metadata.isBlank()) {
      return configured;
    }
    try {
      HttpClient http = HttpClient.newBuilder().connectTimeout(TIMEOUT).build();
      HttpResponse<String> response =
          http.send(
              HttpRequest.newBuilder(URI.create(metadata)).timeout(TIMEOUT).GET().build(),
              HttpResponse.BodyHandlers.ofString());
      if (response.statusCode() != 200) {
        say.accept(
            "the container metadata endpoint answered "
                + response.statusCode()
                + "; the log link is the log group's");
        return configured;
      }
      JsonNode container = JSON.readTree(response.body());
      JsonNode options = container.path("LogOptions");
      String group = options.path("awslogs-group").asText("");
      String region = options.path("awslogs-region").asText("");
      String stream = options.path("awslogs-stream").asText("");
      if (!container.path("LogDriver").asText().equals("awslogs")
          || group.isEmpty()
          || region.isEmpty()
          || stream.isEmpty()) {
        say.accept(
            "the container does not log to an awslogs stream; the log link is the log group's");
        return configured;
      }
      return streamUrl(region, group, stream);
    } catch (IOException | IllegalArgumentException e) {
      say.accept(
          "cannot read the container metadata ("
              + e.getMessage()
              + "); the log link is the log group's");
      return configured;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return configured;
    }
  }

  /**
   * The CloudWatch console's page of one log stream. The console reads the group and the stream
   * from the URL's fragment, each URL-encoded and then with every {@code %} written {@code $25}.
   */
  static String streamUrl(String region, String group, String stream) {
    return "https://"
        + region
        + ".console.aws.amazon.com/cloudwatch/home?region="
        + region
        + "#logsV2:log-groups/log-group/"
        + fragment(group)
        + "/log-events/"
        + fragment(stream);
  }

  private static String fragment(String name) {
    return URLEncoder.encode(name, StandardCharsets.UTF_8).replace("+", "%20").replace("%", "$25");
  }
}
