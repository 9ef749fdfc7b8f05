package io.livegate.tests.scenarios;

import io.livegate.core.deploy.Execution;
import io.livegate.core.vote.Vote;
import java.nio.file.Path;
import java.time.Duration;
import java.util.function.Function;

/**
 * One deployment and how its voters answer, with the outcome every runtime must reach.
 *
 * @param repo writes the live repository into an empty directory
 * @param votes each execution's vote (rollbacks included), cast by one voter through the mailed
 *     link; null for none, which lets the vote time out
 * @param voteTimeout how long a vote may take before it counts as a rejection
 * @param skipEmpty whether a plan without changes skips the vote and the apply
 */
public record Scenario(
    String name,
    Function<Path, LiveRepo> repo,
    Function<Execution, Vote.Choice> votes,
    Duration voteTimeout,
    boolean skipEmpty,
    Outcome expected) {
  @Override
  public String toString() {
    return name;
  }
}
