package io.livegate.core.pr;

import java.time.Instant;
import java.util.List;
import java.util.Set;

/** The open pull requests the merge lock may block. Implemented on the metadb. */
public interface OpenPullRequests {
  /**
   * Records the pull request as open at {@code head}. A new head forgets the units of the old one;
   * the same head again keeps them.
   */
  void opened(PullRequestHead head, Instant now);

  /**
   * Records the units that {@code head} changes; ignored when the pull request has moved on to
   * another head since.
   */
  void unitsNamed(PullRequestHead head, Set<String> units, Instant now);

  /** Records the pull request as closed. */
  void closed(String repository, int number, Instant now);

  /** The repository's open pull requests, by number. */
  List<OpenPullRequest> open(String repository);
}
