package io.livegate.core.deploy;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/** Stores deployments and their queue. Implemented on the metadb; every method is atomic. */
public interface DeploymentStore {

  /** The stored deployment, and whether this call created it. */
  record Created(Deployment deployment, boolean created) {}

  /**
   * Stores a queued deployment with its executions, their dependency edges and its account
   * dependencies, in one transaction: a failure leaves nothing behind. Storing the same merge
   * (repository and merge commit) again returns the first one and changes nothing.
   *
   * @param accountDependencies account name to the names of the accounts it depends on
   */
  Created create(
      MergedPullRequest pullRequest,
      List<ExecutionSpec> executions,
      Map<String, List<String>> accountDependencies,
      Instant now);

  Optional<Deployment> find(long id);

  /** The deployment's stored account closure: account name to every account it waits for. */
  Map<String, Set<String>> accountWaits(long id);

  /** Every deployment of every repository, in queue order: the operator's overview. */
  List<Deployment> all();

  /** Every deployment of the repository, in queue order. */
  List<Deployment> list(String repository);

  /**
   * Starts the oldest queued deployment of the repository if none holds the lock (running, rolling
   * back, or rollback failed). Two callers racing start at most one.
   */
  Optional<Deployment> startNext(String repository, Instant now);

  /** Moves a deployment from one status to another; false when it was not in {@code from}. */
  boolean transition(long id, DeploymentStatus from, DeploymentStatus to, Instant now);

  /**
   * Moves a running deployment to rolling back and adds its rollback executions, in one
   * transaction; false (and nothing added) when it was not running.
   */
  boolean startRollback(long id, List<ExecutionSpec> rollbacks, Instant now);
}
