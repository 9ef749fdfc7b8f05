package io.livegate.core.pr;

import io.livegate.core.LivegateException;

/**
 * An open pull request at one head commit: what a plan of its changes needs.
 *
 * @param repository e.g. "acme/infrastructure-live"
 * @param baseRef the branch it merges into, e.g. "main"
 * @param baseSha the base branch's commit that GitHub compares against
 * @param headSha the pull request's head commit
 * @param fromFork whether the head lives in another repository
 */
public record PullRequestHead(
    String repository,
    int number,
    String baseRef,
    String baseSha,
    String headSha,
    boolean fromFork) {
  public PullRequestHead {
    if (repository == null || repository.isBlank() || number <= 0) {
      throw new LivegateException("a pull request needs its repository and a positive number");
    }
    if (baseSha == null || baseSha.isBlank() || headSha == null || headSha.isBlank()) {
      throw new LivegateException(
          "pull request #" + number + " of " + repository + " needs its base and head commits");
    }
  }
}
