package io.livegate.core.deploy;

import java.util.ArrayDeque;
import java.util.Collection;
import java.util.Deque;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Which executions wait for which. An execution waits for the executions it depends on, and for
 * every execution of each account its account must wait for: for a normal execution, the accounts
 * its account depends on (transitively); for a rollback, the accounts that depend on its account,
 * because rollbacks run in reverse. Rollbacks only wait for rollbacks.
 *
 * <p>The metadb implements {@link #isReady} as one SQL statement; this Java form is the
 * specification, and the in-memory store and the contract tests use it.
 */
public final class ReleaseRule {
  private ReleaseRule() {}

  /**
   * @param accountWaits account name to every account name it depends on, transitively
   */
  public static boolean isReady(
      Execution execution,
      Map<Long, Execution> byId,
      Collection<Execution> all,
      Map<String, Set<String>> accountWaits) {
    if (execution.status() != ExecutionStatus.WAITING) {
      return false;
    }
    for (long dependency : execution.dependsOn()) {
      if (byId.get(dependency).status() != ExecutionStatus.SUCCEEDED) {
        return false;
      }
    }
    for (Execution other : all) {
      if (other.rollback() == execution.rollback()
          && mustWaitForAccount(execution, other.account(), accountWaits)
          && (!other.status().isTerminal() || other.status() == ExecutionStatus.FAILED)) {
        return false;
      }
    }
    return true;
  }

  /**
   * The executions that wait for {@code failed}, directly or transitively: what a failure aborts
   * under {@link FailurePolicy#ABORT_DEPENDENTS}.
   */
  public static Set<Long> waitingOn(
      Execution failed, Collection<Execution> all, Map<String, Set<String>> accountWaits) {
    Set<Long> found = new HashSet<>();
    Deque<Execution> queue = new ArrayDeque<>(List.of(failed));
    while (!queue.isEmpty()) {
      Execution current = queue.poll();
      for (Execution other : all) {
        if (other.id() == current.id()
            || other.rollback() != current.rollback()
            || found.contains(other.id())) {
          continue;
        }
        if (other.dependsOn().contains(current.id())
            || mustWaitForAccount(other, current.account(), accountWaits)) {
          found.add(other.id());
          queue.add(other);
        }
      }
    }
    return found;
  }

  private static boolean mustWaitForAccount(
      Execution execution, String account, Map<String, Set<String>> accountWaits) {
    return execution.rollback()
        ? accountWaits.getOrDefault(account, Set.of()).contains(execution.account())
        : accountWaits.getOrDefault(execution.account(), Set.of()).contains(account);
  }
}
