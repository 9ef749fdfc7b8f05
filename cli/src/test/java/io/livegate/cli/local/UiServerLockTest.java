package io.livegate.cli.local;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code livegate ui} left open in one terminal must not stop a {@code deploy} in another: it holds
 * the state directory only while it answers a page.
 */
class UiServerLockTest {
  @TempDir Path dir;

  @Test
  void aRunTakesTheStateDirectoryWhileUiIsOpenAndUiKeepsAnsweringDuringAndAfterIt()
      throws Exception {
    Path state = dir.resolve("state");
    try (LocalWiring earlier = new LocalWiring(state)) {
      // an earlier run made the state directory and its metadb
    }
    try (UiServer ui = UiServer.start(state, 0)) {
      assertThat(page(ui, "/")).isEqualTo(200);
      assertThat(ui.attached()).isFalse();

      try (LocalWiring run = new LocalWiring(state)) {
        assertThat(page(ui, "/")).isEqualTo(200);
        assertThat(ui.attached()).isTrue();
      }

      assertThat(page(ui, "/")).isEqualTo(200);
      try (LocalWiring next = new LocalWiring(state)) {
        assertThat(next.deployments.find(1)).isEmpty();
      }
    }
  }

  private static int page(UiServer ui, String path) throws Exception {
    HttpResponse<String> response =
        HttpClient.newHttpClient()
            .send(
                HttpRequest.newBuilder(URI.create(ui.baseUrl() + path)).build(),
                HttpResponse.BodyHandlers.ofString());
    return response.statusCode();
  }
}
