package io.livegate.core.drift;

import java.util.Optional;

/**
 * Where drift is reported on the code host: one open issue per repository, found by a marker at the
 * start of its body, updated by every run instead of a new one each time (GitHub issues on AWS).
 */
public interface DriftIssues {
  /** An open issue, by its number. */
  record Issue(int number, String body) {}

  /** The open issue whose body starts with {@code marker}, if any. */
  Optional<Issue> findOpen(String repository, String marker);

  /** Opens an issue; returns its number. */
  int create(String repository, String title, String body);

  /** Replaces an open issue's body, closing it when {@code close}. */
  void update(String repository, int number, String body, boolean close);
}
