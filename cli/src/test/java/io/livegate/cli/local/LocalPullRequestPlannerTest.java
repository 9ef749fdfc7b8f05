package io.livegate.cli.local;

import static org.assertj.core.api.Assertions.assertThat;

import io.livegate.core.account.Accounts;
import io.livegate.core.deploy.CommitStatusPublisher.State;
import io.livegate.core.pr.PlanComment;
import io.livegate.core.pr.PlanComments;
import io.livegate.core.pr.PlanPullRequestResult;
import io.livegate.core.pr.PullRequestHead;
import io.livegate.core.runner.RunnerArgv;
import io.livegate.core.testing.InMemoryPullRequestCommenter;
import io.livegate.core.testing.RecordingStatuses;
import io.livegate.core.testing.RecordingStatuses.Status;
import io.livegate.process.BubblewrapSandbox;
import io.livegate.scan.repo.SourceAccess;
import io.livegate.scan.testing.TestRepo;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code livegate serve}'s pull request plans on a real git repository with real terraform: the
 * pull request changes app/a (on which app/b depends), adds a unit with a hostile name and breaks
 * app/broken; app/c is untouched.
 */
@Timeout(value = 20, unit = TimeUnit.MINUTES)
@Tag("terraform")
class LocalPullRequestPlannerTest {
  private static final String HOSTILE = "app/it's a \"unit\" $(touch pwned) `id`";
  private static final String NEW_PROVIDER = ", new providers terraform.io/builtin/terraform";

  @TempDir Path dir;

  @Test
  void everyChangedUnitIsPlannedAndShowsItsOutcome() throws Exception {
    TestRepo repo = TestRepo.create(dir.resolve("live"));
    unit(repo, "app/a", "a-1", "");
    unit(repo, "app/b", "b-1", "dependency \"a\" {\n  config_path = \"../a\"\n}\n");
    unit(repo, "app/c", "c-1", "");
    unit(repo, "app/broken", "ok", "");
    String base = repo.commit("four units");
    unit(repo, "app/a", "a-2", "");
    unit(repo, HOSTILE, "h-1", "");
    repo.write("app/broken/main.tf", "resource \"terraform_data\" \"x\" {\n  nonsense = 1\n}\n");
    String head = repo.commit("pull request");
    RecordingStatuses statuses = new RecordingStatuses();
    InMemoryPullRequestCommenter commenter = new InMemoryPullRequestCommenter();
    Path workspace = dir.resolve("state/pull-requests");
    PullRequestHead pullRequest = new PullRequestHead("acme/live", 3, "main", base, head, false);

    PlanPullRequestResult result;
    try (LocalPullRequestPlanner planner =
        new LocalPullRequestPlanner(
            workspace,
            new LocalPullRequestPlanner.Settings(
                repo.root().toString(),
                Optional.empty(),
                Accounts.wholeRepository(),
                RunnerArgv.TERRAFORM,
                2,
                false,
                Map.of(),
                SourceAccess.in(dir.resolve("state"))),
            statuses,
            Optional.of(new PlanComments(commenter, message -> {})),
            BubblewrapSandbox.find(List.of(workspace)).orElseThrow(),
            message -> {})) {
      // Bounded as a stuck child is: terraform plans take several times as long on a loaded
      // machine.
      result = planner.plan(pullRequest).get(ChildJvm.STUCK.toSeconds(), TimeUnit.SECONDS);
    }

    assertThat(result.units()).containsExactly("app/a", "app/b", "app/broken", HOSTILE);
    assertThat(statuses.latest())
        .containsExactlyInAnyOrder(
            status(head, "livegate/plan: app/a", State.SUCCESS, "+1 ~0 -0" + NEW_PROVIDER),
            status(head, "livegate/plan: app/b", State.SUCCESS, "+1 ~0 -0" + NEW_PROVIDER),
            status(
                head,
                "livegate/plan: app/broken",
                State.FAILURE,
                "plan failed: Error: Unsupported argument"),
            status(head, "livegate/plan: " + HOSTILE, State.SUCCESS, "+1 ~0 -0" + NEW_PROVIDER),
            status(head, "livegate/plan", State.SUCCESS, "4 units changed, 4 plans started"));
    assertThat(statuses.of("livegate/plan: app/a"))
        .extracting(Status::description)
        .containsExactly("plan queued", "planning", "+1 ~0 -0" + NEW_PROVIDER);
    PlanComment comment = PlanComment.parse(commenter.comments().get(0).body()).orElseThrow();
    assertThat(commenter.comments()).hasSize(1);
    assertThat(comment.entry("app/a").orElseThrow().detail())
        .contains("terraform_data.app will be created");
    assertThat(comment.entry("app/broken").orElseThrow().state())
        .isEqualTo(PlanComment.State.FAILED);
    assertThat(comment.entry(HOSTILE).orElseThrow().state()).isEqualTo(PlanComment.State.PLANNED);
    try (Stream<Path> left = Files.list(workspace)) {
      assertThat(left).as("checkouts and plan files are deleted").isEmpty();
    }
    try (Stream<Path> everything = Files.walk(dir)) {
      assertThat(everything.filter(path -> path.getFileName().toString().equals("pwned")))
          .isEmpty();
    }
  }

  private static void unit(TestRepo repo, String unit, String input, String terragrunt) {
    repo.write(unit + "/terragrunt.hcl", terragrunt + "inputs = {}\n")
        .write(
            unit + "/main.tf",
            "resource \"terraform_data\" \"app\" {\n  input = \"" + input + "\"\n}\n");
  }

  private static Status status(String sha, String context, State state, String description) {
    return new Status("acme/live", sha, context, state, description, "");
  }
}
