package io.livegate.core.pr;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.livegate.core.LivegateException;
import io.livegate.core.account.Account;
import io.livegate.core.account.Accounts;
import io.livegate.core.deploy.CommitStatusPublisher.State;
import io.livegate.core.deploy.PlanSummary;
import io.livegate.core.testing.InMemoryPullRequestCommenter;
import io.livegate.core.testing.RecordingStatuses;
import io.livegate.core.testing.RecordingStatuses.Status;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PlanUnitTest {
  private static final String HEAD = "0123456789abcdef0123456789abcdef01234567";
  private static final PullRequestHead PR =
      new PullRequestHead(
          "acme/live", 7, "main", "1111111111111111111111111111111111111111", HEAD, false);
  private static final String LOG = "https://logs.example.com/unit";
  private static final String ROLE = "arn:aws:iam::123456789012:role/plan";

  @TempDir Path root;

  private final RecordingStatuses statuses = new RecordingStatuses();
  private final InMemoryPullRequestCommenter commenter = new InMemoryPullRequestCommenter();
  private final List<String> planned = new ArrayList<>();
  private final Accounts accounts =
      Accounts.of(List.of(Account.of("apps", "app", List.of()).withRoles(ROLE, "apply")));

  @BeforeEach
  void units() throws Exception {
    Files.createDirectories(root.resolve("app/a"));
    Files.createDirectories(root.resolve("other/x"));
  }

  @Test
  void aPlanPostsPendingThenItsCountsAndFillsItsCommentBlock() {
    PlanUnitResult result =
        planUnit(
                (repositoryRoot, unit, planRole, planName) -> {
                  planned.add(unit + " " + planRole + " " + planName);
                  return UnitPlanner.Outcome.planned(
                      new PlanSummary(2, 0, 1, List.of()), "Plan: 2 to add, 1 to destroy");
                })
            .plan(new PlanUnitCommand(PR, "app/a"));

    assertThat(result).isEqualTo(new PlanUnitResult("app/a", true, "+2 ~0 -1"));
    assertThat(planned).singleElement().asString().startsWith("app/a " + ROLE + " pr7-d7-app-a-");
    assertThat(statuses.all())
        .containsExactly(status(State.PENDING, "planning"), status(State.SUCCESS, "+2 ~0 -1"));
    PlanComment.Entry entry =
        PlanComment.parse(commenter.comments().get(0).body())
            .orElseThrow()
            .entry("app/a")
            .orElseThrow();
    assertThat(entry)
        .isEqualTo(
            new PlanComment.Entry(
                "app/a",
                PlanComment.State.PLANNED,
                "+2 ~0 -1",
                "Plan: 2 to add, 1 to destroy",
                LOG));
  }

  @Test
  void anEmptyPlanSaysNoChangesAndNamesNewProviders() {
    PlanUnitResult result =
        planUnit(
                (r, u, role, name) ->
                    UnitPlanner.Outcome.planned(
                        new PlanSummary(0, 0, 0, List.of("registry.terraform.io/hashicorp/aws")),
                        ""))
            .plan(new PlanUnitCommand(PR, "app/a"));

    assertThat(result.summary())
        .isEqualTo("no changes, new providers registry.terraform.io/hashicorp/aws");
  }

  @Test
  void aFailedPlanPostsTheErrorsFirstLine() {
    String error =
        """
        plan exited with 1:
        ╷
        │ Error: Unsupported argument
        │
        │   on main.tf line 3, in resource "terraform_data" "a":
        ╵
        """;

    PlanUnitResult result =
        planUnit((r, u, role, name) -> UnitPlanner.Outcome.failed(error))
            .plan(new PlanUnitCommand(PR, "app/a"));

    assertThat(result.planned()).isFalse();
    assertThat(statuses.all())
        .last()
        .isEqualTo(status(State.FAILURE, "plan failed: Error: Unsupported argument"));
    assertThat(
            PlanComment.parse(commenter.comments().get(0).body())
                .orElseThrow()
                .entry("app/a")
                .orElseThrow()
                .detail())
        .contains("on main.tf line 3");
  }

  @Test
  void aUnitThatIsNotADirectoryAtTheHeadFailsWithoutPlanning() {
    PlanUnitResult result =
        planUnit(
                (r, u, role, name) -> {
                  throw new AssertionError("nothing may be planned");
                })
            .plan(new PlanUnitCommand(PR, "app/gone"));

    assertThat(result.planned()).isFalse();
    assertThat(result.summary()).contains("app/gone is not a directory at " + HEAD);
  }

  @Test
  void aUnitOutsideEveryAccountFailsWithoutPlanning() {
    PlanUnitResult result =
        planUnit(
                (r, u, role, name) -> {
                  throw new AssertionError("nothing may be planned");
                })
            .plan(new PlanUnitCommand(PR, "other/x"));

    assertThat(result.summary()).isEqualTo("plan failed: the unit other/x belongs to no account");
  }

  @Test
  void aUnitPathThatLeavesTheRepositoryIsRefused() {
    assertThatThrownBy(() -> new PlanUnitCommand(PR, "../etc"))
        .isInstanceOf(LivegateException.class)
        .hasMessageContaining("inside the repository");
    assertThatThrownBy(() -> new PlanUnitCommand(PR, "/etc")).isInstanceOf(LivegateException.class);
    assertThatThrownBy(() -> new PlanUnitCommand(PR, "app/./a"))
        .isInstanceOf(LivegateException.class);
  }

  private PlanUnit planUnit(UnitPlanner planner) {
    return new PlanUnit(
        head -> root,
        planner,
        accounts,
        statuses,
        Optional.of(new PlanComments(commenter, message -> {})),
        LOG,
        message -> {});
  }

  private static Status status(State state, String description) {
    return new Status("acme/live", HEAD, "livegate/plan: app/a", state, description, LOG);
  }
}
