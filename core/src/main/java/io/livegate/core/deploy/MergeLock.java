package io.livegate.core.deploy;

/**
 * The merge lock that GitHub sees: while a merge is being deployed, it holds the lock. The metadb
 * queue stays the source of truth; this is its outward sign (an SSM parameter on AWS).
 */
public interface MergeLock {
  /**
   * Takes the lock for {@code holder} if nobody holds it. Taking it again for the same merge is a
   * success that changes nothing.
   *
   * @return whether {@code holder} holds the lock after the call
   */
  boolean acquire(MergedPullRequest holder);

  /**
   * Releases the lock if {@code holder} holds it; a lock held by another merge is left alone.
   *
   * @return whether this call released it
   */
  boolean release(MergedPullRequest holder);
}
