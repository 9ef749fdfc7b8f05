package io.livegate.core.vote;

/** What became of a vote. Refusals are values, not exceptions: they are expected. */
public sealed interface VoteResult {
  /** The vote counts. {@code decidedNow} is set only for the one vote that decided. */
  record Recorded(Decision decidedNow, long approvals, long rejections) implements VoteResult {
    public boolean decided() {
      return decidedNow != null;
    }
  }

  /** The vote was decided before this one arrived; nothing changed. */
  record AlreadyDecided(Decision decision) implements VoteResult {}

  /** The voter is not listed for this execution; nothing changed. */
  record NotAVoter(String voter) implements VoteResult {}

  /** There is no such execution, or it is not waiting for votes; nothing changed. */
  record NotOpen(String reason) implements VoteResult {}
}
