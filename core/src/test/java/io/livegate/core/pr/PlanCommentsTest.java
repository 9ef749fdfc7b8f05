package io.livegate.core.pr;

import static org.assertj.core.api.Assertions.assertThat;

import io.livegate.core.pr.PlanComment.Entry;
import io.livegate.core.pr.PlanComment.State;
import io.livegate.core.testing.InMemoryPullRequestCommenter;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class PlanCommentsTest {
  private static final String HEAD = "0123456789abcdef0123456789abcdef01234567";
  private static final String NEXT = "fedcba9876543210fedcba9876543210fedcba98";
  private static final PullRequestHead PR = head(HEAD);

  private final InMemoryPullRequestCommenter store = new InMemoryPullRequestCommenter();
  private final List<String> log = new ArrayList<>();
  private final PlanComments comments = new PlanComments(store, log::add);

  @Test
  void theDispatchCreatesOneCommentAndEachUnitUpdatesItsBlock() {
    comments.start(PR, List.of("app/a", "app/b"));
    comments.record(PR, new Entry("app/b", State.PLANNED, "+1 ~0 -0", "plan b", ""));
    comments.record(PR, new Entry("app/a", State.FAILED, "plan failed: Error: x", "", ""));

    assertThat(store.comments()).hasSize(1);
    assertThat(store.writes()).containsExactly("create", "update 1", "update 1");
    PlanComment comment = PlanComment.parse(store.comments().get(0).body()).orElseThrow();
    assertThat(comment.entry("app/a").orElseThrow().state()).isEqualTo(State.FAILED);
    assertThat(comment.entry("app/b").orElseThrow().summary()).isEqualTo("+1 ~0 -0");
    assertThat(log).isEmpty();
  }

  @Test
  void aNewPushReplacesTheBlocksAndALatePlanOfTheOldPushIsLeftOut() {
    comments.start(PR, List.of("app/a", "app/b"));
    comments.start(head(NEXT), List.of("app/c"));
    comments.record(PR, new Entry("app/a", State.PLANNED, "+1 ~0 -0", "", ""));

    PlanComment comment = PlanComment.parse(store.comments().get(0).body()).orElseThrow();
    assertThat(comment.headSha()).isEqualTo(NEXT);
    assertThat(comment.entry("app/a")).isEmpty();
    assertThat(comment.entry("app/c")).isPresent();
    assertThat(log).singleElement().asString().contains("app/a at " + HEAD + " left out");
  }

  @Test
  void aPullRequestThatChangesNoUnitGetsNoComment() {
    comments.start(PR, List.of());

    assertThat(store.comments()).isEmpty();
  }

  @Test
  void aBlockThatLosesARaceIsWrittenAgain() {
    comments.start(PR, List.of("app/a", "app/b"));
    String planningBody = store.comments().get(0).body();
    // Another unit's task read the comment before this write and writes it back after it, once.
    PullRequestCommenter racing =
        new PullRequestCommenter() {
          private boolean raced;

          @Override
          public Optional<Comment> find(String repository, int number, String marker) {
            return store.find(repository, number, marker);
          }

          @Override
          public void create(String repository, int number, String body) {
            store.create(repository, number, body);
          }

          @Override
          public void update(String repository, long commentId, String body) {
            store.update(repository, commentId, body);
            if (!raced) {
              raced = true;
              store.update(repository, commentId, planningBody);
            }
          }
        };

    new PlanComments(racing, log::add)
        .record(PR, new Entry("app/a", State.PLANNED, "+1 ~0 -0", "", ""));

    PlanComment comment = PlanComment.parse(store.comments().get(0).body()).orElseThrow();
    assertThat(comment.entry("app/a").orElseThrow().state()).isEqualTo(State.PLANNED);
    assertThat(log).isEmpty();
  }

  @Test
  void aCommentThatCannotBeWrittenIsLoggedNotThrown() {
    PullRequestCommenter down =
        new PullRequestCommenter() {
          @Override
          public Optional<Comment> find(String repository, int number, String marker) {
            throw new io.livegate.core.LivegateException("GET answered 503");
          }

          @Override
          public void create(String repository, int number, String body) {}

          @Override
          public void update(String repository, long commentId, String body) {}
        };

    new PlanComments(down, log::add).record(PR, new Entry("app/a", State.PLANNED, "", "", ""));

    assertThat(log).singleElement().asString().contains("not written: GET answered 503");
  }

  private static PullRequestHead head(String sha) {
    return new PullRequestHead(
        "acme/live", 7, "main", "1111111111111111111111111111111111111111", sha, false);
  }
}
