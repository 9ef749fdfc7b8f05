package io.livegate.core.deploy;

import io.livegate.core.vote.Vote;
import io.livegate.core.vote.VoteStore;
import java.util.List;
import java.util.Map;

/**
 * The operator's view of a deployment: every execution with its status, dependencies and votes.
 *
 * @param votes execution id to its current votes
 */
public record DeploymentView(
    Deployment deployment, List<Execution> executions, Map<Long, List<Vote>> votes) {

  /** Reads the view from the stores. */
  public static DeploymentView of(
      long deploymentId, DeploymentStore deployments, ExecutionStore executions, VoteStore votes) {
    Deployment deployment =
        deployments
            .find(deploymentId)
            .orElseThrow(
                () ->
                    new io.livegate.core.LivegateException(
                        "there is no deployment " + deploymentId));
    List<Execution> all = executions.list(deploymentId);
    Map<Long, List<Vote>> byExecution = new java.util.LinkedHashMap<>();
    all.forEach(execution -> byExecution.put(execution.id(), votes.votes(execution.id())));
    return new DeploymentView(deployment, all, byExecution);
  }
}
