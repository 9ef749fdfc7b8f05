package io.livegate.core.deploy;

import java.util.List;
import java.util.Optional;

/**
 * Which commits a merge's deployment deploys, so that deployments follow the trunk's first-parent
 * history rather than the order GitHub's deliveries arrive in (a delivery can come late, be
 * redelivered, or never come).
 *
 * <ol>
 *   <li>The first deployment of a repository, a merge given by hand with its exact base, and a
 *       drift reconcile deploy what they name: the trunk just before the merge up to its commit.
 *   <li>A merge whose commit the last deployed commit already contains (on the trunk's first-parent
 *       line) is <em>covered</em>: its changes were deployed by that deployment, whose range took
 *       them in, and deploying its older code now would undo what came after it.
 *   <li>Otherwise the deployment covers the range from the last deployed commit to the merge's
 *       commit: merges in between whose deliveries have not come (yet) are deployed too, and named,
 *       so a lost delivery loses nothing.
 *   <li>When the last deployed commit is not on the merge's first-parent line (the trunk was
 *       rewritten), the merge's own changes are deployed and the range says why.
 * </ol>
 */
public final class TrunkOrder {
  private TrunkOrder() {}

  /** The trunk's first-parent history, as the repository tells it. */
  public interface FirstParents {
    /**
     * The commits on the first-parent line from {@code from} (included) back to {@code ancestor}
     * (excluded), oldest first; empty when {@code ancestor} is not on that line. {@code from} equal
     * to {@code ancestor} gives an empty list.
     */
    Optional<List<String>> between(String ancestor, String from);
  }

  /** What the deployment of a merge does. */
  public sealed interface Range permits Covered, Span {}

  /**
   * The merge was deployed already, by deployment {@code deployment} up to {@code deployedHead}.
   */
  public record Covered(long deployment, String deployedHead) implements Range {}

  /**
   * Deploy the changes from {@code base} to the merge's commit.
   *
   * @param caughtUp trunk commits before the merge's own that the range also deploys, oldest first:
   *     merges whose deliveries have not come
   * @param note why the range is not the usual one; empty when it is
   */
  public record Span(String base, List<String> caughtUp, String note) implements Range {
    public Span {
      caughtUp = List.copyOf(caughtUp);
    }
  }

  /**
   * @param lastDeployed the repository's deployment that deployed the newest commit, if any (not
   *     {@code merge}'s own)
   * @param trunkBeforeMerge the trunk's commit just before the merge's own commits
   */
  public static Range of(
      MergedPullRequest merge,
      Optional<Deployment> lastDeployed,
      String trunkBeforeMerge,
      FirstParents history) {
    if (merge.baseIsExact() || merge.reconcile() || lastDeployed.isEmpty()) {
      return new Span(trunkBeforeMerge, List.of(), "");
    }
    Deployment last = lastDeployed.get();
    String deployed = last.pullRequest().mergeCommit();
    String head = merge.mergeCommit();
    if (history.between(head, deployed).isPresent()) {
      return new Covered(last.id(), deployed);
    }
    Optional<List<String>> gap = history.between(deployed, trunkBeforeMerge);
    if (gap.isPresent()) {
      return new Span(deployed, gap.get(), "");
    }
    return new Span(
        trunkBeforeMerge,
        List.of(),
        "the last deployed commit "
            + deployed
            + " (deployment "
            + last.id()
            + ") is not on the trunk's first-parent line of "
            + head
            + "; deploying the merge's own changes");
  }
}
