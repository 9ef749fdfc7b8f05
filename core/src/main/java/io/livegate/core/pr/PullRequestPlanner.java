package io.livegate.core.pr;

/**
 * Plans a pull request's changed units, away from the webhook receiver: the receiver must answer
 * GitHub within seconds, and a scan and its plans take longer. On AWS it starts a pr-plan task;
 * locally it runs on a background thread.
 */
public interface PullRequestPlanner {
  /** Asks for plans of every unit that {@code head} changes; returns at once. */
  void requestPlans(PullRequestHead head);
}
