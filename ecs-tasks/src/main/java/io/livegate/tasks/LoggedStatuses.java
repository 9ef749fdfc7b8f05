package io.livegate.tasks;

import io.livegate.core.deploy.CommitStatusPublisher;
import java.util.Locale;
import java.util.function.Consumer;

/**
 * Commit statuses written to the log: what the tasks post until the GitHub adapter is configured.
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
            + (targetUrl.isEmpty() ? "" : " " + targetUrl));
  }
}
