package io.livegate.core.pr;

import static org.assertj.core.api.Assertions.assertThat;

import io.livegate.core.pr.PlanComment.Entry;
import io.livegate.core.pr.PlanComment.State;
import io.livegate.core.testing.Golden;
import java.util.List;
import org.junit.jupiter.api.Test;

class PlanCommentTest {
  private static final String HEAD = "0123456789abcdef0123456789abcdef01234567";

  @Test
  void aRenderedCommentParsesBackToTheSameBlocks() {
    Entry planned =
        new Entry("app/a", State.PLANNED, "+2 ~0 -1", "Plan: 2 to add", "https://logs/a");
    PlanComment comment = PlanComment.planning(HEAD, List.of("app/b", "app/a")).with(planned);

    String body = comment.render();
    PlanComment parsed = PlanComment.parse(body).orElseThrow();

    assertThat(body).startsWith(PlanComment.MARKER);
    assertThat(parsed.headSha()).isEqualTo(HEAD);
    assertThat(parsed.entry("app/a")).contains(planned);
    assertThat(parsed.entry("app/b").orElseThrow().state()).isEqualTo(State.PLANNING);
    Golden.assertMatches("plan-comment.md", body);
  }

  @Test
  void aCommentWithEveryStateReadsAsTheGoldenFile() {
    PlanComment comment =
        PlanComment.planning(HEAD, List.of("app/planned", "app/failed", "app/waiting"))
            .with(
                new Entry(
                    "app/planned",
                    State.PLANNED,
                    "+1 ~1 -0",
                    "terraform_data.app will be updated in-place",
                    "https://logs/planned"))
            .with(new Entry("app/failed", State.FAILED, "plan failed", "Error: Unsupported", ""));

    Golden.assertMatches("plan-comment-states.md", comment.render());
  }

  @Test
  void hostileUnitNamesAndOutputCannotBreakTheMarkersOrTheMarkup() {
    String unit = "app/--> <script>alert(1)</script> $(id) \"q\"";
    String output = "``` \n</details>\n<!-- livegate:unit AAAA -->\n````";
    Entry failed =
        new Entry(unit, State.FAILED, "plan failed: Error: <b>x</b>", output, "javascript:x()");

    String body = PlanComment.planning(HEAD, List.of()).with(failed).render();
    PlanComment parsed = PlanComment.parse(body).orElseThrow();

    assertThat(parsed.entry(unit)).contains(failed);
    assertThat(body)
        .doesNotContain("<script>")
        .contains("&lt;script&gt;")
        .contains("Error: &lt;b&gt;x&lt;/b&gt;")
        .contains("`````text\n" + output + "\n`````")
        .doesNotContain("javascript:");
  }

  @Test
  void longOutputIsCutAndATooLongCommentKeepsOnlyTheSummaries() {
    PlanComment comment = PlanComment.planning(HEAD, List.of());
    for (int i = 0; i < 40; i++) {
      comment =
          comment.with(new Entry("app/u" + i, State.PLANNED, "+1 ~0 -0", "y".repeat(10_000), ""));
    }

    Entry one = comment.entry("app/u0").orElseThrow();
    assertThat(one.detail()).hasSize(PlanComment.MAX_DETAIL).endsWith("the log has all of it)");
    String body = comment.render();
    assertThat(body.length()).isLessThanOrEqualTo(PlanComment.MAX_BODY);
    assertThat(body).contains("output left out").contains("<code>app/u39</code>: +1 ~0 -0");
    assertThat(PlanComment.parse(body).orElseThrow().entry("app/u39").orElseThrow().summary())
        .isEqualTo("+1 ~0 -0");
  }

  @Test
  void aBodyThatIsNotLivegatesIsNotAComment() {
    assertThat(PlanComment.parse("LGTM")).isEmpty();
    assertThat(PlanComment.parse(PlanComment.MARKER + "\nno head")).isEmpty();
  }

  @Test
  void aCommentWithNoUnitsSaysSo() {
    assertThat(PlanComment.planning(HEAD, List.of()).render())
        .contains("No units changed at `0123456789ab`.");
  }
}
