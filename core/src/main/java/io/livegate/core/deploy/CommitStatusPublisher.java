package io.livegate.core.deploy;

import java.util.Locale;
import java.util.function.Consumer;

/**
 * Posts a commit status (GitHub's {@code POST /repos/{repo}/statuses/{sha}}). A publisher never
 * fails the deployment: when GitHub is unavailable it logs the status and moves on ({@link
 * #neverFailing} makes one that can fail keep that promise).
 */
public interface CommitStatusPublisher {
  enum State {
    PENDING,
    SUCCESS,
    FAILURE,
    ERROR
  }

  /**
   * @param context e.g. "livegate/deploy"
   * @param targetUrl a link to the log; may be empty
   */
  void publish(
      String repository,
      String sha,
      String context,
      State state,
      String description,
      String targetUrl);

  /**
   * {@code publisher}, keeping this interface's promise where it can fail: whatever it throws
   * (GitHub unavailable after its retries, a refused token, credentials that cannot be read) is
   * logged and dropped, because a status never fails the deployment or plan that posts it. Every
   * later state of the same context posts a newer status anyway, so there is no outbox.
   */
  static CommitStatusPublisher neverFailing(CommitStatusPublisher publisher, Consumer<String> log) {
    return (repository, sha, context, state, description, targetUrl) -> {
      try {
        publisher.publish(repository, sha, context, state, description, targetUrl);
      } catch (RuntimeException e) {
        log.accept(
            "status "
                + context
                + " ("
                + state.name().toLowerCase(Locale.ROOT)
                + ") on "
                + repository
                + "@"
                + sha
                + " not posted: "
                + e.getMessage());
      }
    };
  }
}
