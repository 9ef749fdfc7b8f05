package io.livegate.sql;

import io.livegate.core.deploy.MergeLock;
import io.livegate.core.deploy.MergedPullRequest;
import java.sql.Timestamp;
import java.time.Clock;

/**
 * The merge lock of {@code livegate serve}, in the metadb, with the SSM parameter's semantics: one
 * row per repository, created if absent (so two takers cannot both win), deleted by its holder
 * only.
 */
public final class MetadbMergeLock implements MergeLock {
  private final LazyJdbi jdbi;
  private final Clock clock;

  MetadbMergeLock(LazyJdbi jdbi, Clock clock) {
    this.jdbi = jdbi;
    this.clock = clock;
  }

  @Override
  public boolean acquire(MergedPullRequest holder) {
    return jdbi.withHandle(
        handle -> {
          handle
              .createUpdate(
                  "INSERT INTO merge_locks (repository, pr_number, merge_commit, taken_at)"
                      + " VALUES (:repository, :number, :mergeCommit, :now) ON CONFLICT (repository) DO NOTHING")
              .bind("repository", holder.repository())
              .bind("number", holder.number())
              .bind("mergeCommit", holder.mergeCommit())
              .bind("now", Timestamp.from(clock.instant()))
              .execute();
          return handle
                  .createQuery(
                      "SELECT count(*) FROM merge_locks WHERE repository = :repository"
                          + " AND merge_commit = :mergeCommit")
                  .bind("repository", holder.repository())
                  .bind("mergeCommit", holder.mergeCommit())
                  .mapTo(Integer.class)
                  .one()
              == 1;
        });
  }

  @Override
  public boolean release(MergedPullRequest holder) {
    return jdbi.withHandle(
            handle ->
                handle
                    .createUpdate(
                        "DELETE FROM merge_locks WHERE repository = :repository"
                            + " AND merge_commit = :mergeCommit")
                    .bind("repository", holder.repository())
                    .bind("mergeCommit", holder.mergeCommit())
                    .execute())
        == 1;
  }
}
