package io.livegate.core.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The trunk-order rule over a linear trunk c0..c4 (each commit a squashed merge) and a rewritten
 * one.
 */
class TrunkOrderTest {
  private static final List<String> TRUNK = List.of("c0", "c1", "c2", "c3", "c4");

  /** First parents along {@link #TRUNK}; commits not on it have no line. */
  private static final TrunkOrder.FirstParents HISTORY =
      (ancestor, from) -> {
        int start = TRUNK.indexOf(ancestor);
        int end = TRUNK.indexOf(from);
        if (start < 0 || end < 0 || start > end) {
          return Optional.empty();
        }
        return Optional.of(TRUNK.subList(start + 1, end + 1));
      };

  @Test
  void theFirstDeploymentDeploysItsMergesOwnChanges() {
    assertThat(TrunkOrder.of(merge("c2"), Optional.empty(), "c1", HISTORY))
        .isEqualTo(new TrunkOrder.Span("c1", List.of(), ""));
  }

  @Test
  void aMergeRightAfterTheLastDeployedOneDeploysItsOwnChanges() {
    assertThat(TrunkOrder.of(merge("c2"), deployed(7, "c1"), "c1", HISTORY))
        .isEqualTo(new TrunkOrder.Span("c1", List.of(), ""));
  }

  @Test
  void aMergeAfterUndeliveredOnesDeploysTheWholeRangeAndNamesThem() {
    assertThat(TrunkOrder.of(merge("c4"), deployed(7, "c1"), "c3", HISTORY))
        .isEqualTo(new TrunkOrder.Span("c1", List.of("c2", "c3"), ""));
  }

  @Test
  void aMergeInsideTheDeployedRangeIsCoveredByItsDeployment() {
    assertThat(TrunkOrder.of(merge("c2"), deployed(7, "c4"), "c1", HISTORY))
        .isEqualTo(new TrunkOrder.Covered(7, "c4"));
  }

  @Test
  void theLastDeployedMergeDeliveredAgainIsCovered() {
    assertThat(TrunkOrder.of(merge("c4"), deployed(7, "c4"), "c3", HISTORY))
        .isEqualTo(new TrunkOrder.Covered(7, "c4"));
  }

  @Test
  void aRewrittenTrunkDeploysTheMergesOwnChangesAndSaysWhy() {
    TrunkOrder.Range range = TrunkOrder.of(merge("c4"), deployed(7, "gone"), "c3", HISTORY);

    assertThat(range).isInstanceOf(TrunkOrder.Span.class);
    TrunkOrder.Span span = (TrunkOrder.Span) range;
    assertThat(span.base()).isEqualTo("c3");
    assertThat(span.note())
        .contains("gone", "deployment 7", "not on the trunk's first-parent line");
  }

  @Test
  void aMergeGivenByHandAndADriftReconcileDeployWhatTheyName() {
    MergedPullRequest byHand =
        MergedPullRequest.withExactBase("acme/live", 0, "main", "main", "c0", "c2");
    MergedPullRequest reconcile = MergedPullRequest.reconcile("acme/live", "main", "c2", "run-1");

    assertThat(TrunkOrder.of(byHand, deployed(7, "c4"), "c0", HISTORY))
        .isEqualTo(new TrunkOrder.Span("c0", List.of(), ""));
    assertThat(TrunkOrder.of(reconcile, deployed(7, "c4"), "c2", HISTORY))
        .isEqualTo(new TrunkOrder.Span("c2", List.of(), ""));
  }

  /** Merge {@code commit} as GitHub reports it: one commit, squashed. */
  private static MergedPullRequest merge(String commit) {
    return MergedPullRequest.fromGitHub("acme/live", 1, "main", "feature", "c0", commit, "head", 1);
  }

  private static Optional<Deployment> deployed(long id, String head) {
    Instant now = Instant.parse("2026-11-27T12:00:00Z");
    return Optional.of(
        new Deployment(
            id,
            MergedPullRequest.fromGitHub("acme/live", 9, "main", "feature", "c0", head, "head", 1),
            DeploymentStatus.SUCCEEDED,
            id,
            true,
            now,
            now,
            now,
            "c0",
            null));
  }
}
