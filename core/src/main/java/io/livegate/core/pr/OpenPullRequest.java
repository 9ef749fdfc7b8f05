package io.livegate.core.pr;

import java.util.Optional;
import java.util.Set;

/**
 * An open pull request at its latest head.
 *
 * @param units the units its head changes, once a plan of that head has named them
 */
public record OpenPullRequest(PullRequestHead head, Optional<Set<String>> units) {
  public OpenPullRequest {
    units = units.map(Set::copyOf);
  }
}
