package io.livegate.github;

import java.net.URI;
import java.net.http.HttpClient;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;

/** A client of a WireMock stand-in for GitHub whose sleeps are recorded, not slept. */
final class GitHubStubs {
  static final String TOKEN = "ghs_test-token";
  static final Instant NOW = Instant.parse("2025-01-02T03:04:05Z");

  final List<Duration> sleeps = new ArrayList<>();
  final List<String> log = new ArrayList<>();
  final GitHubClient client;

  GitHubStubs(String baseUrl) {
    this.client =
        new GitHubClient(
            URI.create(baseUrl),
            () -> TOKEN,
            HttpClient.newHttpClient(),
            GitHubClient.Retries.DEFAULT,
            sleeps::add,
            Clock.fixed(NOW, ZoneOffset.UTC),
            () -> 1.0);
  }
}
