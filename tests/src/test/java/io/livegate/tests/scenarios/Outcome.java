package io.livegate.tests.scenarios;

import io.livegate.core.deploy.DeploymentStatus;
import io.livegate.core.deploy.Execution;
import io.livegate.core.deploy.ExecutionStatus;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Where a deployment ended: its status and each execution's, by unit, a rollback as "unit
 * (rollback)" and the destroy of a deleted unit as "unit (destroy)". What the conformance suite
 * compares between runtimes.
 */
public record Outcome(DeploymentStatus deployment, Map<String, ExecutionStatus> executions) {
  public Outcome {
    executions = new TreeMap<>(executions);
  }

  public static Outcome of(DeploymentStatus deployment, List<Execution> executions) {
    Map<String, ExecutionStatus> statuses = new TreeMap<>();
    executions.forEach(execution -> statuses.put(key(execution), execution.status()));
    return new Outcome(deployment, statuses);
  }

  /** The key of an execution: its unit, with " (rollback)" or " (destroy)" when it is one. */
  public static String key(Execution execution) {
    return execution.unit()
        + (execution.rollback() ? " (rollback)" : execution.destroy() ? " (destroy)" : "");
  }
}
