package io.livegate.core.pr;

import java.util.List;

/**
 * What a pull request's plan dispatch did.
 *
 * @param units the units whose plans it started, sorted
 * @param message what the {@code livegate/plan} status says
 */
public record PlanPullRequestResult(Outcome outcome, List<String> units, String message) {
  public enum Outcome {
    /** The changed units' plans were started. */
    STARTED,
    /** The pull request changes no unit. */
    NO_CHANGES,
    /** A pull request from a fork, which livegate does not plan unless configured to. */
    FORK_REFUSED,
    /** The checkout or the scan failed; nothing was planned. */
    FAILED
  }

  public PlanPullRequestResult {
    units = List.copyOf(units);
  }
}
