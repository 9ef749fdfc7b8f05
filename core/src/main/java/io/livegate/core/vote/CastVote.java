package io.livegate.core.vote;

import java.time.Clock;

/** Records a voter's approve or reject. Refusals (not a voter, already decided) are values. */
public final class CastVote {
  private final VoteStore votes;
  private final Clock clock;

  public CastVote(VoteStore votes, Clock clock) {
    this.votes = votes;
    this.clock = clock;
  }

  public VoteResult cast(long executionId, String voter, Vote.Choice choice) {
    return cast(executionId, voter, choice, "");
  }

  /**
   * @param reason why, as the voter wrote it; kept as {@link Vote#reason(String)} says
   */
  public VoteResult cast(long executionId, String voter, Vote.Choice choice, String reason) {
    return votes.cast(executionId, voter, choice, Vote.reason(reason), clock.instant());
  }
}
