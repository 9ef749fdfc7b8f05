package io.livegate.sql;

import io.livegate.core.pr.OpenPullRequest;
import io.livegate.core.pr.OpenPullRequests;
import io.livegate.core.pr.PullRequestHead;
import java.sql.Array;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/** Open pull requests on PostgreSQL, one row per pull request at its latest head. */
public final class JdbiOpenPullRequests implements OpenPullRequests {
  private final LazyJdbi jdbi;

  JdbiOpenPullRequests(LazyJdbi jdbi) {
    this.jdbi = jdbi;
  }

  @Override
  public void opened(PullRequestHead head, Instant now) {
    jdbi.useHandle(
        handle ->
            handle
                .createUpdate(
                    "INSERT INTO pull_requests (repository, number, base_ref, base_sha, head_sha,"
                        + " from_fork, units, is_open, updated_at) VALUES (:repository, :number, :baseRef,"
                        + " :baseSha, :headSha, :fromFork, NULL, true, :now) ON CONFLICT (repository, number)"
                        + " DO UPDATE SET base_ref = excluded.base_ref, base_sha = excluded.base_sha,"
                        + " head_sha = excluded.head_sha, from_fork = excluded.from_fork, is_open = true,"
                        + " updated_at = excluded.updated_at, units = CASE WHEN pull_requests.head_sha ="
                        + " excluded.head_sha THEN pull_requests.units END")
                .bind("repository", head.repository())
                .bind("number", head.number())
                .bind("baseRef", head.baseRef())
                .bind("baseSha", head.baseSha())
                .bind("headSha", head.headSha())
                .bind("fromFork", head.fromFork())
                .bind("now", Timestamp.from(now))
                .execute());
  }

  @Override
  public void unitsNamed(PullRequestHead head, Set<String> units, Instant now) {
    jdbi.useHandle(
        handle ->
            handle
                .createUpdate(
                    "UPDATE pull_requests SET units = :units, updated_at = :now"
                        + " WHERE repository = :repository AND number = :number AND head_sha = :headSha")
                .bind("units", units.stream().sorted().toArray(String[]::new))
                .bind("repository", head.repository())
                .bind("number", head.number())
                .bind("headSha", head.headSha())
                .bind("now", Timestamp.from(now))
                .execute());
  }

  @Override
  public void closed(String repository, int number, Instant now) {
    jdbi.useHandle(
        handle ->
            handle
                .createUpdate(
                    "UPDATE pull_requests SET is_open = false, updated_at = :now"
                        + " WHERE repository = :repository AND number = :number")
                .bind("repository", repository)
                .bind("number", number)
                .bind("now", Timestamp.from(now))
                .execute());
  }

  @Override
  public List<OpenPullRequest> open(String repository) {
    return jdbi.withHandle(
        handle ->
            handle
                .createQuery(
                    "SELECT repository, number, base_ref, base_sha, head_sha, from_fork, units"
                        + " FROM pull_requests WHERE repository = :repository AND is_open ORDER BY number")
                .bind("repository", repository)
                .map((rs, ctx) -> row(rs))
                .list());
  }

  private static OpenPullRequest row(ResultSet rs) throws SQLException {
    Array units = rs.getArray("units");
    return new OpenPullRequest(
        new PullRequestHead(
            rs.getString("repository"),
            rs.getInt("number"),
            rs.getString("base_ref"),
            rs.getString("base_sha"),
            rs.getString("head_sha"),
            rs.getBoolean("from_fork")),
        units == null ? Optional.empty() : Optional.of(Set.of((String[]) units.getArray())));
  }
}
