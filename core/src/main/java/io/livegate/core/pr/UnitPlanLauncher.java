package io.livegate.core.pr;

/**
 * Starts the plan of one unit of a pull request, somewhere else: an ECS task on AWS, a thread
 * locally. It returns once the plan is started; {@link PlanUnit} posts its outcome.
 */
@FunctionalInterface
public interface UnitPlanLauncher {
  void launch(PullRequestHead head, String unit);
}
