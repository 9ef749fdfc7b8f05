package io.livegate.core.deploy;

import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/** Stores executions. Implemented on the metadb; every method is atomic. */
public interface ExecutionStore {

  /**
   * Claims every ready execution of the deployment and marks it running, sorted by unit id. Ready
   * means (see {@link ReleaseRule}): waiting; every execution it depends on has succeeded; and no
   * execution of an account it must wait for is unfinished or failed. Two callers racing never
   * claim the same execution.
   */
  List<Execution> claimReady(long deploymentId, Instant now);

  /** Moves an execution from one status to another; false when it was not in {@code from}. */
  boolean transition(long executionId, ExecutionStatus from, ExecutionStatus to, Instant now);

  /** Records the saved plan of a running execution; false when it is not running. */
  boolean recordPlan(long executionId, String artifact, String sha256, PlanSummary summary);

  /** Records what a running execution's apply created for new providers; false when not running. */
  boolean recordNewResources(long executionId, List<String> addresses);

  /**
   * Keeps the task token that a running execution's RequestApproval waits on; false when it is not
   * running. A repeated request replaces the token, since only the newest wait is answerable.
   */
  boolean recordApprovalToken(long executionId, String taskToken);

  /** The task token the execution's RequestApproval waits on, if any was recorded. */
  Optional<String> approvalToken(long executionId);

  /**
   * Ends a running execution as {@code outcome} (failed or rejected) and aborts those of {@code
   * dependents} whose status is in {@code from}, in one transaction: a crash between the two would
   * leave dependents waiting for an execution that can no longer succeed, and a repeated event
   * finds the outcome recorded and changes nothing.
   *
   * @return empty, with nothing changed, when the execution was not running; else the executions
   *     aborted by this call, as they were before
   */
  Optional<List<Execution>> endAndAbort(
      long executionId,
      ExecutionStatus outcome,
      Collection<Long> dependents,
      Set<ExecutionStatus> from,
      Instant now);

  /**
   * Aborts those of {@code executionIds} whose status is in {@code from}, except an execution that
   * has entered Apply: it is left to finish, so that its outcome and the resources it created are
   * recorded and a rollback covers them. The same holds for the aborts of {@link #endAndAbort}.
   *
   * @return the executions that were aborted by this call, as they were before
   */
  List<Execution> abort(Collection<Long> executionIds, Set<ExecutionStatus> from, Instant now);

  /**
   * Whether an execution of the deployment is still waiting or running. Cheaper than {@link #list}:
   * every outcome asks it, and only the last one needs the whole list.
   */
  boolean anyUnfinished(long deploymentId);

  /**
   * Records that a running execution's flow entered {@code state}, with a detail for people, and
   * logs it as a flow event; false when the execution is not running.
   */
  boolean enterFlowState(long executionId, String state, String detail, Instant at);

  /** The flow state a running execution last entered, if any. */
  Optional<String> flowState(long executionId);

  /** Every flow event of the execution, in order, as "State" or "State: detail". */
  List<String> flowEvents(long executionId);

  Optional<Execution> find(long executionId);

  Optional<Execution> findByName(String name);

  /** The deployment's executions: normal ones by layer and unit, then rollbacks likewise. */
  List<Execution> list(long deploymentId);
}
