package io.livegate.sql;

import io.livegate.core.deploy.Execution;
import io.livegate.core.deploy.ExecutionStatus;
import io.livegate.core.vote.Decision;
import io.livegate.core.vote.Vote;
import io.livegate.core.vote.VoteResult;
import io.livegate.core.vote.VoteStore;
import io.livegate.core.vote.VoteTally;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jdbi.v3.core.Handle;

/**
 * Votes on PostgreSQL. Each vote locks its execution's row, so votes on one execution are applied
 * one at a time and exactly one of them reaches the decision.
 */
public final class JdbiVoteStore implements VoteStore {
  private final LazyJdbi jdbi;

  JdbiVoteStore(LazyJdbi jdbi) {
    this.jdbi = jdbi;
  }

  @Override
  public VoteResult cast(
      long executionId, String voter, Vote.Choice choice, String reason, Instant at) {
    return jdbi.inTransaction(
        handle -> {
          Optional<Execution> locked =
              ExecutionRows.selectForUpdate(handle, "e.id = :id", "e.id", Map.of("id", executionId))
                  .stream()
                  .findFirst();
          if (locked.isEmpty()) {
            return new VoteResult.NotOpen("there is no execution " + executionId);
          }
          Execution execution = locked.get();
          if (execution.decision() != null) {
            return new VoteResult.AlreadyDecided(Decision.fromId(execution.decision()));
          }
          if (execution.status() != ExecutionStatus.RUNNING) {
            return new VoteResult.NotOpen(
                "execution " + execution.name() + " is " + execution.status().id());
          }
          if (!execution.spec().voters().contains(voter)) {
            return new VoteResult.NotAVoter(voter);
          }
          handle
              .createUpdate(
                  "INSERT INTO votes (execution_id, voter, choice, cast_at, reason) VALUES (:id, :voter, :choice, :at, :reason)"
                      + " ON CONFLICT (execution_id, voter) DO UPDATE SET choice = EXCLUDED.choice, cast_at = EXCLUDED.cast_at,"
                      + " reason = EXCLUDED.reason")
              .bind("id", executionId)
              .bind("voter", voter)
              .bind("choice", choice.id())
              .bind("at", Timestamp.from(at))
              .bind("reason", Vote.reason(reason))
              .execute();
          handle
              .createUpdate(
                  "INSERT INTO vote_events (execution_id, voter, choice, cast_at, reason) VALUES (:id, :voter, :choice, :at, :reason)")
              .bind("id", executionId)
              .bind("voter", voter)
              .bind("choice", choice.id())
              .bind("at", Timestamp.from(at))
              .bind("reason", Vote.reason(reason))
              .execute();
          List<Vote> votes = votes(handle, "votes", executionId);
          Optional<Decision> decision = VoteTally.decide(execution.spec(), votes);
          decision.ifPresent(
              decided ->
                  handle
                      .createUpdate(
                          "UPDATE executions SET decision = :decision, decided_at = :at WHERE id = :id AND decision IS NULL")
                      .bind("id", executionId)
                      .bind("decision", decided.id())
                      .bind("at", Timestamp.from(at))
                      .execute());
          return new VoteResult.Recorded(
              decision.orElse(null),
              VoteTally.count(execution.spec(), votes, Vote.Choice.APPROVE),
              VoteTally.count(execution.spec(), votes, Vote.Choice.REJECT));
        });
  }

  @Override
  public List<Vote> votes(long executionId) {
    return jdbi.withHandle(handle -> votes(handle, "votes", executionId));
  }

  @Override
  public List<Vote> history(long executionId) {
    return jdbi.withHandle(handle -> votes(handle, "vote_events", executionId));
  }

  private static List<Vote> votes(Handle handle, String table, long executionId) {
    String order = table.equals("vote_events") ? "id" : "cast_at, voter";
    return handle
        .createQuery(
            "SELECT execution_id, voter, choice, cast_at, reason FROM "
                + table
                + " WHERE execution_id = :id ORDER BY "
                + order)
        .bind("id", executionId)
        .map(
            (rs, ctx) ->
                new Vote(
                    rs.getLong(1),
                    rs.getString(2),
                    Vote.Choice.fromId(rs.getString(3)),
                    rs.getTimestamp(4).toInstant(),
                    rs.getString(5)))
        .list();
  }
}
