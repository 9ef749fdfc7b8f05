package io.livegate.scan;

import static org.assertj.core.api.Assertions.assertThat;

import io.livegate.core.ProgressListener;
import io.livegate.core.account.Accounts;
import io.livegate.core.deploy.CommitStatusPublisher.State;
import io.livegate.core.pr.PlanComment;
import io.livegate.core.pr.PlanComments;
import io.livegate.core.pr.PlanPullRequestResult;
import io.livegate.core.pr.PullRequestHead;
import io.livegate.core.testing.InMemoryPullRequestCommenter;
import io.livegate.core.testing.RecordingStatuses;
import io.livegate.core.testing.RecordingStatuses.Status;
import io.livegate.scan.testing.TestRepo;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.eclipse.jgit.api.Git;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The pr-plan dispatch on a real git repository: the pull request's branch changes app/a, on which
 * app/b depends, while main has moved on with a change to app/c since the branch left it.
 */
class PlanPullRequestTest {
  private static final String LOG = "https://logs.example.com/dispatch";

  @TempDir Path dir;

  private final RecordingStatuses statuses = new RecordingStatuses();
  private final List<String> launched = new ArrayList<>();
  private final InMemoryPullRequestCommenter commenter = new InMemoryPullRequestCommenter();
  private final List<String> log = new ArrayList<>();
  private TestRepo repo;
  private String forkPoint;
  private String prHead;
  private String mainHead;

  @BeforeEach
  void repository() throws Exception {
    repo = TestRepo.create(dir.resolve("live"));
    repo.write("app/a/terragrunt.hcl", "inputs = {}\n")
        .write(
            "app/b/terragrunt.hcl",
            "dependency \"a\" {\n  config_path = \"../a\"\n}\ninputs = {}\n")
        .write("app/c/terragrunt.hcl", "inputs = {}\n");
    forkPoint = repo.commit("three units");
    repo.write("app/a/terragrunt.hcl", "inputs = { size = 2 }\n");
    prHead = repo.commit("pull request: resize a");
    try (Git git = Git.open(repo.root().toFile())) {
      git.checkout().setName(forkPoint).call();
    }
    repo.write("app/c/terragrunt.hcl", "inputs = { moved = true }\n");
    mainHead = repo.commit("main moves on: c");
  }

  @Test
  void eachUnitOfTheChangeSetGetsAPendingStatusAndAPlanAgainstTheForkPoint() {
    PlanPullRequestResult result = dispatch(launched::add).plan(head(false));

    assertThat(result.outcome()).isEqualTo(PlanPullRequestResult.Outcome.STARTED);
    assertThat(result.units()).containsExactly("app/a", "app/b");
    assertThat(launched).containsExactly("app/a", "app/b");
    assertThat(statuses.all())
        .containsExactly(
            status("livegate/plan: app/a", State.PENDING, "plan queued"),
            status("livegate/plan: app/b", State.PENDING, "plan queued"),
            status("livegate/plan", State.SUCCESS, "2 units changed, 2 plans started"));
    PlanComment comment = PlanComment.parse(commenter.comments().get(0).body()).orElseThrow();
    assertThat(comment.headSha()).isEqualTo(prHead);
    assertThat(comment.entry("app/a").orElseThrow().state()).isEqualTo(PlanComment.State.PLANNING);
    assertThat(comment.entry("app/c")).isEmpty();
  }

  @Test
  void aPullRequestThatChangesNoUnitSaysSoOnce() throws Exception {
    try (Git git = Git.open(repo.root().toFile())) {
      git.checkout().setName(prHead).call();
    }
    repo.write("README.md", "docs only\n");
    String docs = repo.commit("docs");

    PlanPullRequestResult result =
        dispatch(launched::add)
            .plan(new PullRequestHead("acme/live", 7, "main", prHead, docs, false));

    assertThat(result.outcome()).isEqualTo(PlanPullRequestResult.Outcome.NO_CHANGES);
    assertThat(launched).isEmpty();
    assertThat(statuses.all())
        .containsExactly(
            new Status("acme/live", docs, "livegate/plan", State.SUCCESS, "no units changed", LOG));
    assertThat(commenter.comments()).isEmpty();
  }

  @Test
  void aForkPullRequestIsNotPlannedByDefault() {
    PlanPullRequestResult result = dispatch(launched::add).plan(head(true));

    assertThat(result.outcome()).isEqualTo(PlanPullRequestResult.Outcome.FORK_REFUSED);
    assertThat(launched).isEmpty();
    assertThat(statuses.all())
        .containsExactly(
            status(
                "livegate/plan",
                State.ERROR,
                "not planned: pull requests from forks are not planned"));
  }

  @Test
  void aForkPullRequestIsPlannedWhenConfigured() {
    PlanPullRequest planForks =
        new PlanPullRequest(
            h -> repo.root(),
            new GraphScan(ProgressListener.silent())::run,
            Accounts.wholeRepository(),
            statuses,
            (h, unit) -> launched.add(unit),
            Optional.empty(),
            new PlanPullRequest.Settings(true, LOG, 1),
            log::add);

    assertThat(planForks.plan(head(true)).outcome())
        .isEqualTo(PlanPullRequestResult.Outcome.STARTED);
    assertThat(launched).containsExactly("app/a", "app/b");
  }

  @Test
  void anUnreadableConfigFailsTheScanStatusWithItsFirstLine() throws Exception {
    try (Git git = Git.open(repo.root().toFile())) {
      git.checkout().setName(prHead).call();
    }
    repo.write("app/a/terragrunt.hcl", "inputs = {\n");
    String broken = repo.commit("broken");

    PlanPullRequestResult result =
        dispatch(launched::add)
            .plan(new PullRequestHead("acme/live", 7, "main", mainHead, broken, false));

    assertThat(result.outcome()).isEqualTo(PlanPullRequestResult.Outcome.FAILED);
    assertThat(launched).isEmpty();
    Status scan = statuses.all().get(0);
    assertThat(scan.context()).isEqualTo("livegate/plan");
    assertThat(scan.state()).isEqualTo(State.FAILURE);
    assertThat(scan.description()).startsWith("scan failed: ").contains("app/a/terragrunt.hcl");
    assertThat(statuses.all()).hasSize(1);
  }

  @Test
  void aPlanThatCannotStartIsAnErrorOfItsUnitAlone() {
    PlanPullRequestResult result =
        dispatch(
                unit -> {
                  if (unit.equals("app/a")) {
                    throw new io.livegate.core.LivegateException("RunTask refused: no capacity");
                  }
                  launched.add(unit);
                })
            .plan(head(false));

    assertThat(result.units()).containsExactly("app/b");
    assertThat(statuses.latest())
        .containsExactly(
            status(
                "livegate/plan: app/a",
                State.ERROR,
                "plan not started: RunTask refused: no capacity"),
            status("livegate/plan: app/b", State.PENDING, "plan queued"),
            status("livegate/plan", State.ERROR, "2 units changed, 1 plans started"));
  }

  private PlanPullRequest dispatch(java.util.function.Consumer<String> launch) {
    return new PlanPullRequest(
        h -> repo.root(),
        new GraphScan(ProgressListener.silent())::run,
        Accounts.wholeRepository(),
        statuses,
        (h, unit) -> launch.accept(unit),
        Optional.of(new PlanComments(commenter, log::add)),
        new PlanPullRequest.Settings(false, LOG, 1),
        log::add);
  }

  private PullRequestHead head(boolean fromFork) {
    return new PullRequestHead("acme/live", 7, "main", mainHead, prHead, fromFork);
  }

  private Status status(String context, State state, String description) {
    return new Status("acme/live", prHead, context, state, description, LOG);
  }
}
