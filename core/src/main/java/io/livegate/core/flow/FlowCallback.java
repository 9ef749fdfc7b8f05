package io.livegate.core.flow;

/**
 * Answers a flow that waits on a task token (Step Functions' SendTaskSuccess and SendTaskFailure).
 * Answering a token twice, or a token whose wait has ended, is refused by the flow and changes
 * nothing; implementations report that as {@code false}.
 */
public interface FlowCallback {
  /**
   * Ends RequestApproval with {@code decision}.
   *
   * @return false when the flow no longer waits on the token (answered before, timed out, stopped)
   */
  boolean decide(String taskToken, FlowDecision decision);

  /**
   * Fails the waiting task with an error name the definition can catch.
   *
   * @return false when the flow no longer waits on the token
   */
  boolean fail(String taskToken, String error, String cause);
}
