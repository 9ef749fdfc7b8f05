package io.livegate.core.vote;

import java.time.Instant;
import java.util.List;

/** Stores votes and each execution's decision. Implemented on the metadb. */
public interface VoteStore {

  /**
   * Records a vote and, through {@link VoteTally}, the decision it reaches, in one atomic step per
   * execution: of votes arriving together, exactly one decides. A running execution without a
   * decision is open for votes; a voter may change their vote until the decision.
   *
   * @param reason why, as {@link Vote#reason(String)} keeps it; empty when not given
   */
  VoteResult cast(long executionId, String voter, Vote.Choice choice, String reason, Instant at);

  /** The current votes, one per voter. */
  List<Vote> votes(long executionId);

  /** Every vote ever cast on the execution, in order: the audit trail. */
  List<Vote> history(long executionId);
}
