package io.livegate.scan.repo;

import io.livegate.core.LivegateException;
import io.livegate.core.deploy.MergedPullRequest;
import java.util.List;
import java.util.function.Predicate;

/**
 * The trunk's head just before a merge, worked out from the commits GitHub made, so that a merge's
 * change set is what the merge itself brought. The pull request's base commit is not it when the
 * trunk moved on after the pull request was last based: scanning from there would also deploy the
 * other merges in between.
 *
 * <ul>
 *   <li>A merge commit (two parents): its first parent.
 *   <li>A squashed commit, or a rebase of one commit: its parent.
 *   <li>A rebase of N commits: N commits back along first parents. A rebase keeps each commit's
 *       author, author date and message, a squash does not; so the merged commit is a rebase when
 *       its authorship is that of the pull request's head. The head commit is fetched from {@code
 *       refs/pull/N/head} when the checkout does not hold it; without it the scan refuses rather
 *       than guess.
 * </ul>
 */
public final class TrunkBeforeMerge {
  private TrunkBeforeMerge() {}

  /**
   * @param fetchHead makes the given head commit available in {@code repo}; false when it cannot
   */
  public static String of(GitRepo repo, MergedPullRequest merge, Predicate<String> fetchHead) {
    if (merge.baseIsExact()) {
      return merge.baseCommit();
    }
    String merged = merge.mergeCommit();
    List<String> parents = repo.parents(merged);
    if (parents.isEmpty()) {
      throw new LivegateException(
          describe(merge) + ": merge commit " + merged + " has no parent to compare with");
    }
    if (parents.size() > 1 || merge.commits() == 1) {
      return parents.get(0);
    }
    String head = merge.headCommit();
    if (head == null || !(repo.has(head) || fetchHead.test(head))) {
      throw new LivegateException(
          describe(merge)
              + ": cannot tell whether its "
              + merge.commits()
              + " commits were squashed or rebased into "
              + merged
              + ", because its head commit "
              + (head == null ? "is not known" : head + " is not in the repository")
              + "; livegate does not guess which units a merge changed");
    }
    if (!repo.authorship(merged).equals(repo.authorship(head))) {
      return parents.get(0);
    }
    String trunk = merged;
    for (int step = 0; step < merge.commits(); step++) {
      List<String> stepParents = repo.parents(trunk);
      if (stepParents.size() != 1) {
        throw new LivegateException(
            describe(merge)
                + ": rebased into "
                + merged
                + ", but commit "
                + trunk
                + ", "
                + step
                + " back, has "
                + stepParents.size()
                + " parents instead of one");
      }
      trunk = stepParents.get(0);
    }
    return trunk;
  }

  private static String describe(MergedPullRequest merge) {
    return "pull request #" + merge.number() + " of " + merge.repository();
  }
}
