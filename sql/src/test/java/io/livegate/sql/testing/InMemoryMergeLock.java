package io.livegate.sql.testing;

import io.livegate.core.deploy.MergeLock;
import io.livegate.core.deploy.MergedPullRequest;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A merge lock in memory that enforces a single holder, identified as the SSM adapter identifies
 * it: by repository and merge commit. Each call that changes the holder is logged, so a test sees
 * the hand-over order. The AWS adapter ({@code SsmMergeLock}) is for the moto-backed suites of the
 * tests module to cover.
 */
public final class InMemoryMergeLock implements MergeLock {
  private MergedPullRequest holder;
  private final List<String> changes = new ArrayList<>();

  @Override
  public synchronized boolean acquire(MergedPullRequest pullRequest) {
    if (holder == null) {
      holder = pullRequest;
      changes.add("acquired by #" + pullRequest.number());
      return true;
    }
    return same(holder, pullRequest);
  }

  @Override
  public synchronized boolean release(MergedPullRequest pullRequest) {
    if (holder == null || !same(holder, pullRequest)) {
      return false;
    }
    holder = null;
    changes.add("released by #" + pullRequest.number());
    return true;
  }

  public synchronized Optional<MergedPullRequest> holder() {
    return Optional.ofNullable(holder);
  }

  /** Every acquire and release that changed the holder, in order, as "acquired by #1". */
  public synchronized List<String> changes() {
    return List.copyOf(changes);
  }

  private static boolean same(MergedPullRequest one, MergedPullRequest other) {
    return one.repository().equals(other.repository())
        && one.mergeCommit().equals(other.mergeCommit());
  }
}
