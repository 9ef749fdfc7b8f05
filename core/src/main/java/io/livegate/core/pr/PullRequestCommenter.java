package io.livegate.core.pr;

import java.util.Optional;

/**
 * Reads and writes livegate's comments on a pull request (GitHub's issue comments). What a comment
 * says is decided in core ({@link PlanComment}); the adapter only stores it.
 */
public interface PullRequestCommenter {
  /** A comment as stored. */
  record Comment(long id, String body) {}

  /** The first comment on the pull request whose body starts with {@code marker}. */
  Optional<Comment> find(String repository, int number, String marker);

  void create(String repository, int number, String body);

  void update(String repository, long commentId, String body);
}
