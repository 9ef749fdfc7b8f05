package io.livegate.core.deploy;

import io.livegate.core.LivegateException;

/**
 * The merge a deployment deploys. A repository and merge commit identify it: storing the same merge
 * twice gives one deployment.
 *
 * <p>The change set is what the merge itself brought to the trunk, scanned from the trunk's head
 * just before the merge. GitHub's payload names the commit the pull request was last based on
 * ({@code baseCommit}), which is older when the trunk moved on after that; so create-deploy-stack
 * works the trunk's head out from {@code mergeCommit}, {@code headCommit} and {@code commits}. With
 * {@code commits} 0 (a merge given by hand, {@code livegate deploy BASE HEAD}) {@code baseCommit}
 * is taken as that head.
 *
 * @param repository e.g. "acme/infrastructure-live"
 * @param baseCommit the trunk commit the pull request was based on
 * @param mergeCommit the merge commit, squashed commit or last rebased commit GitHub made
 * @param headCommit the pull request's head commit; {@code null} when not known
 * @param commits how many commits the pull request had; 0 when {@code baseCommit} is exact
 * @param driftRun {@code null} for a merge; for a drift reconcile (docs/drift.md), the drift run
 *     that found the drift: a reconcile is identified by it, not by its commit, because the trunk
 *     head it redeploys has usually been deployed by its merge already
 * @param title the pull request's title as GitHub's payload gave it (the author's words: data,
 *     escaped wherever it is shown); empty when not known
 * @param author the login of the pull request's author; empty when not known
 */
public record MergedPullRequest(
    String repository,
    int number,
    String baseRef,
    String headRef,
    String baseCommit,
    String mergeCommit,
    String headCommit,
    int commits,
    String driftRun,
    String title,
    String author) {
  public MergedPullRequest {
    title = title == null ? "" : title;
    author = author == null ? "" : author;
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
    if (commits < 0) {
      throw new LivegateException(
          "pull request #" + number + " of " + repository + " cannot have " + commits + " commits");
    }
    if (driftRun != null && driftRun.isBlank()) {
      throw new LivegateException("a drift reconcile of " + repository + " needs its drift run");
    }
  }

  /** A merge as GitHub reports it. */
  public static MergedPullRequest fromGitHub(
      String repository,
      int number,
      String baseRef,
      String headRef,
      String baseCommit,
      String mergeCommit,
      String headCommit,
      int commits) {
    return new MergedPullRequest(
        repository,
        number,
        baseRef,
        headRef,
        baseCommit,
        mergeCommit,
        headCommit,
        commits,
        null,
        "",
        "");
  }

  /** This merge with its pull request's title and author, as the webhook's payload names them. */
  public MergedPullRequest titled(String title, String author) {
    return new MergedPullRequest(
        repository,
        number,
        baseRef,
        headRef,
        baseCommit,
        mergeCommit,
        headCommit,
        commits,
        driftRun,
        title,
        author);
  }

  /**
   * The deployment that a drift run queues to re-apply the drifted units at the trunk head ({@code
   * trunkRef} at {@code head}): no pull request, base and merge commit both the head.
   */
  public static MergedPullRequest reconcile(
      String repository, String trunkRef, String head, String driftRun) {
    if (driftRun == null) {
      throw new LivegateException("a drift reconcile of " + repository + " needs its drift run");
    }
    return new MergedPullRequest(
        repository, 0, trunkRef, trunkRef, head, head, null, 0, driftRun, "", "");
  }

  /** Whether this is a drift reconcile rather than a merge. */
  public boolean reconcile() {
    return driftRun != null;
  }

  /** A merge whose {@code baseCommit} is exactly the trunk before it, as given by hand. */
  public static MergedPullRequest withExactBase(
      String repository,
      int number,
      String baseRef,
      String headRef,
      String baseCommit,
      String mergeCommit) {
    return new MergedPullRequest(
        repository, number, baseRef, headRef, baseCommit, mergeCommit, null, 0, null, "", "");
  }

  /** Whether {@code baseCommit} is the trunk just before the merge, as given by hand. */
  public boolean baseIsExact() {
    return commits == 0;
  }
}
