package io.livegate.core.deploy;

/**
 * Posts a commit status (GitHub's {@code POST /repos/{repo}/statuses/{sha}}). A publisher never
 * fails the deployment: when GitHub is unavailable it logs the status and moves on.
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
}
