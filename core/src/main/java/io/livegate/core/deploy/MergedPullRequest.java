package io.livegate.core.deploy;

import io.livegate.core.LivegateException;

/**
 * The merge a deployment deploys. A repository and merge commit identify it: storing the same merge
 * twice gives one deployment.
 *
 * @param repository e.g. "acme/infrastructure-live"
 * @param baseCommit the trunk commit before the merge
 * @param mergeCommit the merge commit
 */
public record MergedPullRequest(
    String repository,
    int number,
    String baseRef,
    String headRef,
    String baseCommit,
    String mergeCommit) {
  public MergedPullRequest {
    if (repository == null || repository.isBlank()) {
      throw new LivegateException("a merged pull request needs its repository");
    }
    if (mergeCommit == null
        || mergeCommit.isBlank()
        || baseCommit == null
        || baseCommit.isBlank()) {
      throw new LivegateException(
          "pull request #" + number + " of " + repository + " needs its base and merge commits");
    }
  }
}
