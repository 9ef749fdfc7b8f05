package io.livegate.core.vote;

import io.livegate.core.LivegateException;
import io.livegate.core.deploy.Deployment;
import io.livegate.core.deploy.DeploymentStore;
import io.livegate.core.deploy.Execution;
import io.livegate.core.deploy.ExecutionStore;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The operator's view of a deployment: every execution with its status, dependencies and votes. It
 * lives with the votes it reads, so that the deployment engine does not depend on votes.
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
            .orElseThrow(() -> new LivegateException("there is no deployment " + deploymentId));
    List<Execution> all = executions.list(deploymentId);
    Map<Long, List<Vote>> byExecution = new LinkedHashMap<>();
    all.forEach(execution -> byExecution.put(execution.id(), votes.votes(execution.id())));
    return new DeploymentView(deployment, all, byExecution);
  }
}
