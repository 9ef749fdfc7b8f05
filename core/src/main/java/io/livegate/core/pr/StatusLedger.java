package io.livegate.core.pr;

import io.livegate.core.deploy.CommitStatusPublisher;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * The last state livegate posted for each commit status: what a closed pull request's pending
 * statuses are, and whether a merge-lock status changed. Implemented on the metadb.
 */
public interface StatusLedger {
  void record(PostedStatus status, Instant now);

  Optional<PostedStatus> last(String repository, String sha, String context);

  /** The statuses of the commit whose last posted state is pending. */
  List<PostedStatus> pending(String repository, String sha);

  /**
   * A publisher that posts through {@code publisher} and then records the status in {@code ledger}.
   */
  static CommitStatusPublisher recording(
      CommitStatusPublisher publisher, StatusLedger ledger, Clock clock) {
    return (repository, sha, context, state, description, targetUrl) -> {
      publisher.publish(repository, sha, context, state, description, targetUrl);
      ledger.record(
          new PostedStatus(repository, sha, context, state, description, targetUrl),
          clock.instant());
    };
  }
}
