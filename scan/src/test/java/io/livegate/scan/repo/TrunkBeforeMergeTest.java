package io.livegate.scan.repo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.livegate.core.LivegateException;
import io.livegate.core.ProgressListener;
import io.livegate.core.account.Accounts;
import io.livegate.core.deploy.MergedPullRequest;
import io.livegate.scan.GraphScan;
import io.livegate.scan.ScanCommand;
import io.livegate.scan.testing.Scans;
import io.livegate.scan.testing.TestRepo;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.eclipse.jgit.api.Git;
import org.eclipse.jgit.api.MergeCommand;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.PersonIdent;
import org.eclipse.jgit.lib.RefUpdate;
import org.eclipse.jgit.revwalk.RevCommit;
import org.eclipse.jgit.revwalk.RevWalk;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Two pull requests opened from the same trunk commit and merged one after the other, the way
 * GitHub merges them: the second one's payload still names the old base, and its deployment must
 * hold only its own units. The repository plays GitHub (branches, {@code refs/pull/N/head}, the
 * merged trunk); the scan reads a clone of it, as create-deploy-stack does.
 */
class TrunkBeforeMergeTest {
  private static final PersonIdent GITHUB = new PersonIdent("GitHub", "noreply@github.com");

  /** GitHub's three merge buttons. */
  enum Method {
    MERGE_COMMIT,
    SQUASH,
    REBASE
  }

  @TempDir Path dir;
  private TestRepo github;
  private String base;

  @BeforeEach
  void trunkWithFourUnits() {
    github = TestRepo.create(dir.resolve("github"));
    for (String unit : List.of("app-a", "app-b", "app-c", "app-d")) {
      github.write(unit + "/terragrunt.hcl", "inputs = { name = \"" + unit + "\" }\n");
    }
    base = github.commit("four units");
  }

  @ParameterizedTest
  @EnumSource(Method.class)
  void theSecondOfTwoPullRequestsFromTheSameBaseDeploysOnlyItsOwnUnits(Method method)
      throws Exception {
    PullRequest first = pullRequest(1, "app-a", "app-c");
    PullRequest second = pullRequest(2, "app-b", "app-d");
    String firstMerged = merge(first, method);
    String secondMerged = merge(second, method);

    assertThat(deployedUnits(first.merged(firstMerged))).containsExactly("app-a", "app-c");
    assertThat(deployedUnits(second.merged(secondMerged))).containsExactly("app-b", "app-d");
    // What the payload's base alone would have deployed: the first merge's units too.
    assertThat(Scans.units(Scans.graphScan(github, base, secondMerged)))
        .containsExactly("app-a", "app-b", "app-c", "app-d");
  }

  @Test
  void aSquashOrRebaseWhoseHeadCommitCannotBeFetchedIsRefusedRatherThanGuessed() throws Exception {
    PullRequest first = pullRequest(1, "app-a", "app-c");
    String merged = merge(first, Method.SQUASH);
    try (Git git = Git.open(github.root().toFile())) {
      RefUpdate delete = git.getRepository().updateRef("refs/pull/1/head");
      delete.setForceUpdate(true);
      delete.delete();
      git.branchDelete().setBranchNames("pr-1").setForce(true).call();
    }
    MergedPullRequest merge = first.merged(merged);

    assertThatThrownBy(() -> deployedUnits(merge))
        .isInstanceOf(LivegateException.class)
        .hasMessage(
            "pull request #1 of acme/live: cannot tell whether its 2 commits were squashed or"
                + " rebased into "
                + merged
                + ", because its head commit "
                + first.head()
                + " is not in the repository; livegate does not guess which units a merge changed");
  }

  @Test
  void aMergeGivenByHandIsScannedFromTheBaseItNames() {
    github.touch("app-c/terragrunt.hcl");
    String head = github.commit("by hand");
    MergedPullRequest merge =
        MergedPullRequest.withExactBase("acme/live", 0, "main", "main", base, head);

    assertThat(deployedUnits(merge)).containsExactly("app-c");
  }

  /**
   * A pull request of two commits from {@code base}, the first touching {@code firstUnit}, the
   * second {@code secondUnit}: a rebase stepped back over one commit only would miss the first.
   */
  private PullRequest pullRequest(int number, String firstUnit, String secondUnit)
      throws Exception {
    try (Git git = Git.open(github.root().toFile())) {
      git.checkout().setCreateBranch(true).setName("pr-" + number).setStartPoint(base).call();
      github.touch(firstUnit + "/terragrunt.hcl");
      github.commit("change " + firstUnit);
      github.touch(secondUnit + "/terragrunt.hcl");
      String head = github.commit("change " + secondUnit);
      RefUpdate ref = git.getRepository().updateRef("refs/pull/" + number + "/head");
      ref.setNewObjectId(ObjectId.fromString(head));
      ref.setForceUpdate(true);
      ref.update();
      git.checkout().setName("main").call();
      return new PullRequest(number, base, head);
    }
  }

  /** Merges the pull request into main as GitHub's button does, and returns the new trunk head. */
  private String merge(PullRequest pr, Method method) throws Exception {
    try (Git git = Git.open(github.root().toFile())) {
      ObjectId head = ObjectId.fromString(pr.head());
      switch (method) {
        case MERGE_COMMIT ->
            git.merge()
                .include(head)
                .setFastForward(MergeCommand.FastForwardMode.NO_FF)
                .setMessage("Merge pull request #" + pr.number())
                .call();
        case SQUASH -> {
          git.merge().include(head).setSquash(true).call();
          git.commit()
              .setMessage("Pull request " + pr.number() + " (#" + pr.number() + ")")
              .setAuthor(GITHUB)
              .setCommitter(GITHUB)
              .setSign(false)
              .call();
        }
        case REBASE -> {
          for (RevCommit commit : commitsOf(git, pr)) {
            git.cherryPick().include(commit).call();
          }
        }
      }
      return git.getRepository().resolve("main").name();
    }
  }

  /** The pull request's commits, oldest first. */
  private List<RevCommit> commitsOf(Git git, PullRequest pr) throws Exception {
    try (RevWalk walk = new RevWalk(git.getRepository())) {
      RevCommit head = walk.parseCommit(ObjectId.fromString(pr.head()));
      RevCommit first = walk.parseCommit(head.getParent(0));
      return List.of(first, head);
    }
  }

  /** What create-deploy-stack deploys for the merge: checkout, trunk before the merge, scan. */
  private List<String> deployedUnits(MergedPullRequest merge) {
    Checkout checkout = new Checkout(github.root().toString(), Optional.empty());
    Path workspace =
        checkout.at(dir.resolve("workspace-" + merge.mergeCommit()), merge.mergeCommit());
    String trunk;
    try (GitRepo repo = GitRepo.open(workspace)) {
      trunk =
          TrunkBeforeMerge.of(
              repo,
              merge,
              head -> checkout.fetch(workspace, head, "refs/pull/" + merge.number() + "/head"));
    }
    return Scans.units(
        new GraphScan(ProgressListener.silent())
            .run(
                ScanCommand.builder(workspace, Accounts.wholeRepository())
                    .base(trunk)
                    .head(merge.mergeCommit())
                    .parallelism(2)
                    .build()));
  }

  private record PullRequest(int number, String base, String head) {
    /** The merged event's view: the base it was opened from, its head and its two commits. */
    MergedPullRequest merged(String mergeCommit) {
      return MergedPullRequest.fromGitHub(
          "acme/live", number, "main", "pr-" + number, base, mergeCommit, head, 2);
    }
  }
}
