package io.livegate.core.vote;

import io.livegate.core.deploy.Execution;
import java.util.Collection;
import java.util.Optional;

/**
 * The last check before an apply, in every runtime: the execution's recorded decision is "approved"
 * and its recorded votes, tallied again by {@link VoteTally}, reach the approval threshold. A
 * decision written without votes (by whoever got at the metadb) applies nothing.
 */
public final class ApplyGate {
  private ApplyGate() {}

  /** Why {@code execution} must not be applied; empty when its votes approve it. */
  public static Optional<String> refusal(Execution execution, Collection<Vote> votes) {
    if (!Decision.APPROVED.id().equals(execution.decision())) {
      return Optional.of(
          "not approved (decision "
              + (execution.decision() == null ? "none" : execution.decision())
              + "); nothing was applied");
    }
    if (VoteTally.decide(execution.spec(), votes).orElse(null) != Decision.APPROVED) {
      return Optional.of(
          "recorded as approved, but its votes do not approve it ("
              + VoteTally.count(execution.spec(), votes, Vote.Choice.APPROVE)
              + " approvals from listed voters, "
              + execution.spec().minApprovals()
              + " needed); nothing was applied");
    }
    return Optional.empty();
  }
}
