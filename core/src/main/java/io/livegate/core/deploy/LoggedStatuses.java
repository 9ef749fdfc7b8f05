package io.livegate.core.deploy;

import java.util.Locale;
import java.util.function.Consumer;

/**
 * Commit statuses written to the log: what every runtime posts when no GitHub token is configured
 * (local runs, {@code livegate serve} without a token, tasks without a token secret).
 */
public final class LoggedStatuses implements CommitStatusPublisher {
  private final Consumer<String> log;

  public LoggedStatuses(Consumer<String> log) {
    this.log = log;
  }

  @Override
  public void publish(
      String repository,
      String sha,
      String context,
      State state,
      String description,
      String targetUrl) {
    log.accept(
        "status "
            + context
            + " on "
            + repository
            + "@"
            + sha
            + ": "
            + state.name().toLowerCase(Locale.ROOT)
            + " ("
            + description
            + ")"
            + (targetUrl == null || targetUrl.isEmpty() ? "" : " " + targetUrl));
  }
}
