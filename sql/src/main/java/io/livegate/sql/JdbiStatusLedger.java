package io.livegate.sql;

import io.livegate.core.deploy.CommitStatusPublisher;
import io.livegate.core.pr.PostedStatus;
import io.livegate.core.pr.StatusLedger;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/** The last posted state of each commit status, on PostgreSQL. */
public final class JdbiStatusLedger implements StatusLedger {
  private static final String COLUMNS = "repository, sha, context, state, description, target_url";

  private final LazyJdbi jdbi;

  JdbiStatusLedger(LazyJdbi jdbi) {
    this.jdbi = jdbi;
  }

  @Override
  public void record(PostedStatus status, Instant now) {
    jdbi.useHandle(
        handle ->
            handle
                .createUpdate(
                    "INSERT INTO commit_statuses ("
                        + COLUMNS
                        + ", posted_at) VALUES (:repository, :sha, :context, :state, :description,"
                        + " :targetUrl, :now) ON CONFLICT (repository, sha, context) DO UPDATE SET state ="
                        + " excluded.state, description = excluded.description, target_url ="
                        + " excluded.target_url, posted_at = excluded.posted_at")
                .bind("repository", status.repository())
                .bind("sha", status.sha())
                .bind("context", status.context())
                .bind("state", status.state().name().toLowerCase(Locale.ROOT))
                .bind("description", status.description())
                .bind("targetUrl", status.targetUrl() == null ? "" : status.targetUrl())
                .bind("now", Timestamp.from(now))
                .execute());
  }

  @Override
  public Optional<PostedStatus> last(String repository, String sha, String context) {
    return jdbi.withHandle(
        handle ->
            handle
                .createQuery(
                    "SELECT "
                        + COLUMNS
                        + " FROM commit_statuses WHERE repository = :repository AND sha = :sha"
                        + " AND context = :context")
                .bind("repository", repository)
                .bind("sha", sha)
                .bind("context", context)
                .map((rs, ctx) -> row(rs))
                .findOne());
  }

  @Override
  public List<PostedStatus> pending(String repository, String sha) {
    return jdbi.withHandle(
        handle ->
            handle
                .createQuery(
                    "SELECT "
                        + COLUMNS
                        + " FROM commit_statuses WHERE repository = :repository AND sha = :sha"
                        + " AND state = 'pending' ORDER BY context COLLATE \"C\"")
                .bind("repository", repository)
                .bind("sha", sha)
                .map((rs, ctx) -> row(rs))
                .list());
  }

  private static PostedStatus row(ResultSet rs) throws SQLException {
    return new PostedStatus(
        rs.getString("repository"),
        rs.getString("sha"),
        rs.getString("context"),
        CommitStatusPublisher.State.valueOf(rs.getString("state").toUpperCase(Locale.ROOT)),
        rs.getString("description"),
        rs.getString("target_url"));
  }
}
