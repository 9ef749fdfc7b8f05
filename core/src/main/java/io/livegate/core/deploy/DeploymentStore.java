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
   * Queues a merge before its change set is known: the webhook receiver calls this when GitHub
   * reports the merge, so the queue keeps merge order. The deployment's stack is not stored yet.
   * Queuing the same merge again returns the first one and changes nothing.
   */
  Created enqueue(MergedPullRequest pullRequest, Instant now);

  /**
   * Stores a deployment's executions, their dependency edges and its account dependencies, in one
   * transaction: a failure leaves nothing behind. A merge queued by {@link #enqueue} without its
   * stack gets it now, in whatever status it has; otherwise a new queued deployment is stored.
   * Storing a merge whose stack is stored already returns the first one and changes nothing.
   *
   * @param rangeBase the commit the stack was scanned from ({@link TrunkOrder})
   * @param accountDependencies account name to the names of the accounts it depends on
   */
  Created create(
      MergedPullRequest pullRequest,
      String rangeBase,
      List<ExecutionSpec> executions,
      Map<String, List<String>> accountDependencies,
      Instant now);

  /**
   * Records that deployment {@code id}, queued without its stack, is covered by deployment {@code
   * coveredBy}, whose range already deployed its merge ({@link TrunkOrder.Covered}): its stack is
   * stored with nothing to deploy. False (and nothing changed) when its stack was stored already.
   */
  boolean cover(long id, long coveredBy);

  /**
   * The repository's deployment other than {@code excluding} that deployed the newest trunk commit:
   * the last started merge deployment with its stack stored that was not covered. Drift reconciles
   * do not count, since they redeploy units rather than a range of the trunk.
   */
  Optional<Deployment> lastDeployed(String repository, long excluding);

  Optional<Deployment> find(long id);

  /** The deployment's stored account closure: account name to every account it waits for. */
  Map<String, Set<String>> accountWaits(long id);

  /** Every deployment of every repository, in queue order: the operator's overview. */
  List<Deployment> all();

  /** Every deployment of the repository, in queue order. */
  List<Deployment> list(String repository);

  /**
   * The repository's deployment that holds the lock (running, rolling back, or rollback failed), if
   * any.
   */
  Optional<Deployment> lockHolder(String repository);

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
