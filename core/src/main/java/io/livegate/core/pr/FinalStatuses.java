package io.livegate.core.pr;

import io.livegate.core.deploy.CommitStatusPublisher;
import io.livegate.core.deploy.CommitStatusPublisher.State;
import io.livegate.core.deploy.Deployment;
import io.livegate.core.deploy.DeploymentStatus;
import io.livegate.core.deploy.DeploymentStore;
import io.livegate.core.deploy.Execution;
import io.livegate.core.deploy.ExecutionStatus;
import io.livegate.core.deploy.ExecutionStore;
import io.livegate.core.deploy.OperatorCommands;
import io.livegate.core.deploy.StatusTexts;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * The final commit statuses that no task posts: terra-run posts a unit's plan and apply, but a
 * rejection, a vote that timed out, an empty plan that was skipped, an abort and the deployment's
 * own end happen in the flow or the engine. After every trigger event the deployment is settled:
 * each finished execution whose {@code livegate/deploy: <unit>} status is still pending (or was
 * never posted) gets its final state, and a finished deployment gets its {@code livegate/deploy}.
 * The ledger makes it idempotent: a status already final is not posted again. The deployment's own
 * {@code livegate/deploy} names it ("deployment 12 succeeded"), and only that final status settles
 * it: a drift reconcile redeploys the commit its merge deployed, and the merge's final status on
 * that commit must not stand for the reconcile's end.
 */
public final class FinalStatuses {
  private final DeploymentStore deployments;
  private final ExecutionStore executions;
  private final StatusLedger ledger;
  private final CommitStatusPublisher statuses;
  private final String logUrl;
  private final OperatorCommands operator;

  /**
   * @param statuses posts and records in {@code ledger} (see {@link StatusLedger#recording})
   * @param logUrl where the statuses link to; may be empty
   */
  public FinalStatuses(
      DeploymentStore deployments,
      ExecutionStore executions,
      StatusLedger ledger,
      CommitStatusPublisher statuses,
      String logUrl,
      OperatorCommands operator) {
    this.deployments = deployments;
    this.executions = executions;
    this.ledger = ledger;
    this.statuses = statuses;
    this.logUrl = logUrl;
    this.operator = operator;
  }

  /** Settles the deployment of the execution named {@code executionName}, if there is one. */
  public void settleExecution(String executionName) {
    executions.findByName(executionName).ifPresent(e -> settle(e.deploymentId()));
  }

  /** Posts every final status of the deployment that is not posted yet. */
  public void settle(long deploymentId) {
    Optional<Deployment> found = deployments.find(deploymentId);
    if (found.isEmpty() || !found.get().stackStored()) {
      return;
    }
    Deployment deployment = found.get();
    for (Execution execution : executions.list(deploymentId)) {
      finalState(execution)
          .ifPresent(
              state ->
                  postIfUnsettled(
                      deployment,
                      StatusTexts.deployContext(execution.unit(), execution.rollback()),
                      state,
                      last -> last.state() != State.PENDING));
    }
    finalState(deployment)
        .ifPresent(
            state ->
                postIfUnsettled(
                    deployment,
                    StatusTexts.DEPLOY,
                    state,
                    last -> last.description().equals(state.description())));
  }

  private record Final(State state, String description) {}

  /**
   * @param settles whether the context's last posted status already settles it
   */
  private void postIfUnsettled(
      Deployment deployment, String context, Final state, Predicate<PostedStatus> settles) {
    String repository = deployment.pullRequest().repository();
    String sha = deployment.pullRequest().mergeCommit();
    if (ledger.last(repository, sha, context).filter(settles).isPresent()) {
      return;
    }
    statuses.publish(repository, sha, context, state.state(), state.description(), logUrl);
  }

  private static Optional<Final> finalState(Execution execution) {
    ExecutionStatus status = execution.status();
    if (status == ExecutionStatus.SUCCEEDED) {
      return Optional.of(
          new Final(
              State.SUCCESS,
              execution.decision() == null ? "no changes; nothing to apply" : "applied"));
    }
    if (status == ExecutionStatus.REJECTED) {
      return Optional.of(
          new Final(
              State.FAILURE,
              "rejected".equals(execution.decision())
                  ? "rejected by the vote"
                  : "no decision before the vote timed out"));
    }
    if (status == ExecutionStatus.FAILED) {
      return Optional.of(new Final(State.FAILURE, "the deploy flow failed; see the log"));
    }
    if (status == ExecutionStatus.ABORTED) {
      return Optional.of(
          new Final(State.ERROR, "aborted: a unit it waits for failed or was rejected"));
    }
    return Optional.empty();
  }

  private Optional<Final> finalState(Deployment deployment) {
    String name = "deployment " + deployment.id();
    DeploymentStatus status = deployment.status();
    if (status == DeploymentStatus.SUCCEEDED && deployment.coveredBy() != null) {
      return Optional.of(
          new Final(
              State.SUCCESS,
              name + ": deployed by deployment " + deployment.coveredBy() + ", delivered later"));
    }
    if (status == DeploymentStatus.SUCCEEDED) {
      return Optional.of(new Final(State.SUCCESS, name + " succeeded"));
    }
    if (status == DeploymentStatus.REJECTED) {
      return Optional.of(new Final(State.FAILURE, name + " was rejected"));
    }
    if (status == DeploymentStatus.FAILED) {
      return Optional.of(new Final(State.FAILURE, name + " failed"));
    }
    if (status == DeploymentStatus.ROLLBACK_FAILED) {
      return Optional.of(
          new Final(
              State.ERROR,
              name
                  + ": a rollback failed and holds the lock; repair it, then run "
                  + operator.resolveRollback(executions, deployment.id())));
    }
    return Optional.empty();
  }
}
