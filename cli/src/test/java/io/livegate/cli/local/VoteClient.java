package io.livegate.cli.local;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/** What a voter's browser does with a vote link: GET shows the confirm page, POST votes. */
public final class VoteClient {
  private static final HttpClient HTTP =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  private VoteClient() {}

  public static HttpResponse<String> open(String link) {
    return send(HttpRequest.newBuilder(URI.create(link)).GET());
  }

  /** Posts the link's token as the confirm page's form does. */
  public static HttpResponse<String> confirm(String link) {
    int query = link.indexOf('?');
    return send(
        HttpRequest.newBuilder(URI.create(link.substring(0, query)))
            .header("Content-Type", "application/x-www-form-urlencoded")
            .POST(HttpRequest.BodyPublishers.ofString(link.substring(query + 1))));
  }

  private static HttpResponse<String> send(HttpRequest.Builder request) {
    try {
      return HTTP.send(
          request.timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }
}
