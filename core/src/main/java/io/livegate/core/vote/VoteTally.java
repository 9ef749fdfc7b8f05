package io.livegate.core.vote;

import io.livegate.core.deploy.ExecutionSpec;
import java.util.Collection;
import java.util.Optional;

/**
 * The vote rule. Only listed voters count, each with their current choice. The vote is decided when
 * approvals reach the minimum, or rejections reach theirs ("at least", never "exactly", so a late
 * vote past the threshold cannot leave it undecided).
 */
public final class VoteTally {
  private VoteTally() {}

  public static Optional<Decision> decide(ExecutionSpec spec, Collection<Vote> votes) {
    long approvals = count(spec, votes, Vote.Choice.APPROVE);
    long rejections = count(spec, votes, Vote.Choice.REJECT);
    if (rejections >= spec.minRejections()) {
      return Optional.of(Decision.REJECTED);
    }
    if (approvals >= spec.minApprovals()) {
      return Optional.of(Decision.APPROVED);
    }
    return Optional.empty();
  }

  public static long count(ExecutionSpec spec, Collection<Vote> votes, Vote.Choice choice) {
    return votes.stream()
        .filter(vote -> vote.choice() == choice && spec.voters().contains(vote.voter()))
        .count();
  }
}
