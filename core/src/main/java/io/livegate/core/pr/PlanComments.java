package io.livegate.core.pr;

import io.livegate.core.pr.PullRequestCommenter.Comment;
import java.util.Collection;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * Keeps livegate's one plan comment on a pull request up to date. The dispatch starts it with a
 * "planning" block per unit; each unit's task then replaces its own block. Writers that share this
 * object (the local planner's threads) take turns, so none loses another's block. Tasks in other
 * processes share no store, so a write can still race another unit's: after each write the comment
 * is read back, and the write is repeated while the unit's block lost the race; a write that lands
 * after that check can still put back an earlier block (GitHub offers no conditional update of a
 * comment), and the unit's commit status stays the authoritative outcome. A comment that cannot be
 * written is logged and never fails a plan.
 */
public final class PlanComments {
  private static final int ATTEMPTS = 3;

  private final PullRequestCommenter commenter;
  private final Consumer<String> log;

  public PlanComments(PullRequestCommenter commenter, Consumer<String> log) {
    this.commenter = commenter;
    this.log = log;
  }

  /**
   * Replaces the comment with one "planning" block per unit of {@code head}: blocks of an earlier
   * head go. No comment is created for a pull request that changes no unit.
   */
  public synchronized void start(PullRequestHead head, Collection<String> units) {
    try {
      Optional<Comment> existing = find(head);
      if (existing.isEmpty() && units.isEmpty()) {
        return;
      }
      write(head, existing, PlanComment.planning(head.headSha(), units).render());
    } catch (RuntimeException e) {
      log.accept(failure(head, e));
    }
  }

  /**
   * Puts {@code entry} in place of its unit's block, while the comment is about {@code head}: a
   * task of an earlier push that ends late changes nothing.
   */
  public synchronized void record(PullRequestHead head, PlanComment.Entry entry) {
    try {
      for (int attempt = 1; attempt <= ATTEMPTS; attempt++) {
        Optional<Comment> existing = find(head);
        PlanComment comment =
            existing
                .flatMap(found -> PlanComment.parse(found.body()))
                .orElseGet(() -> PlanComment.planning(head.headSha(), java.util.List.of()));
        if (!comment.headSha().equals(head.headSha())) {
          log.accept(
              "plan comment of #"
                  + head.number()
                  + " is about "
                  + comment.headSha()
                  + " now; "
                  + entry.unit()
                  + " at "
                  + head.headSha()
                  + " left out");
          return;
        }
        write(head, existing, comment.with(entry).render());
        Optional<PlanComment> after = find(head).flatMap(found -> PlanComment.parse(found.body()));
        boolean kept =
            after.isPresent()
                && (!after.get().headSha().equals(head.headSha())
                    || after.get().entry(entry.unit()).filter(entry::sameOutcome).isPresent());
        if (kept) {
          return;
        }
      }
      log.accept(
          "plan comment of #"
              + head.number()
              + ": the block of "
              + entry.unit()
              + " lost "
              + ATTEMPTS
              + " races with other units' writes; the status still shows its plan");
    } catch (RuntimeException e) {
      log.accept(failure(head, e));
    }
  }

  private Optional<Comment> find(PullRequestHead head) {
    return commenter.find(head.repository(), head.number(), PlanComment.MARKER);
  }

  private void write(PullRequestHead head, Optional<Comment> existing, String body) {
    if (existing.isPresent()) {
      commenter.update(head.repository(), existing.get().id(), body);
    } else {
      commenter.create(head.repository(), head.number(), body);
    }
  }

  private static String failure(PullRequestHead head, RuntimeException e) {
    return "plan comment of "
        + head.repository()
        + "#"
        + head.number()
        + " not written: "
        + e.getMessage();
  }
}
