package io.livegate.tests.aws;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathMatching;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.wireMockConfig;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.github.tomakehurst.wiremock.WireMockServer;
import com.github.tomakehurst.wiremock.stubbing.ServeEvent;
import io.livegate.core.deploy.CommitStatusPublisher;
import io.livegate.core.testing.RecordingStatuses;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A WireMock stand-in for GitHub's REST API that accepts commit statuses, so the production wiring
 * posts through its real GitHub adapter; {@link #statuses} reads back what was posted, in order.
 */
final class GitHubApi implements AutoCloseable {
  static final String TOKEN = "ghs_moto-token";
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Pattern STATUS_PATH =
      Pattern.compile("/repos/([^/]+/[^/]+)/statuses/([0-9a-f]+)");

  private final WireMockServer server = new WireMockServer(wireMockConfig().dynamicPort());

  GitHubApi() {
    server.start();
    server.stubFor(
        post(urlPathMatching("/repos/[^/]+/[^/]+/statuses/[0-9a-f]+"))
            .willReturn(aResponse().withStatus(201).withBody("{}")));
  }

  String url() {
    return server.baseUrl();
  }

  /** Every status posted so far, oldest first. */
  RecordingStatuses statuses() {
    List<ServeEvent> events = new ArrayList<>(server.getAllServeEvents());
    Collections.reverse(events);
    RecordingStatuses statuses = new RecordingStatuses();
    for (ServeEvent event : events) {
      Matcher path = STATUS_PATH.matcher(event.getRequest().getUrl());
      if (!path.matches()) {
        continue;
      }
      try {
        JsonNode body = JSON.readTree(event.getRequest().getBodyAsString());
        statuses.publish(
            URLDecoder.decode(path.group(1), StandardCharsets.UTF_8),
            path.group(2),
            body.path("context").asText(),
            CommitStatusPublisher.State.valueOf(
                body.path("state").asText().toUpperCase(Locale.ROOT)),
            body.path("description").asText(),
            body.path("target_url").asText(""));
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    return statuses;
  }

  @Override
  public void close() {
    server.stop();
  }
}
