package io.livegate.core.deploy;

import java.util.List;
import java.util.Optional;

/**
 * What recording an outcome did, for the runtime to act on.
 *
 * @param recorded false when the outcome changed nothing; {@code message} says why
 * @param toStop running executions that were aborted: the runtime stops their flows
 * @param aborted every execution this outcome aborted
 * @param rollbacksAdded how many rollback executions the deployment now has to run
 * @param finished the deployment's final status, when this outcome finished it
 * @param releaseLock whether the runtime should release the merge lock now
 * @param next the queued deployment that was started after this one finished
 */
public record OutcomeResult(
    boolean recorded,
    String message,
    List<Execution> toStop,
    List<Execution> aborted,
    int rollbacksAdded,
    Optional<DeploymentStatus> finished,
    boolean releaseLock,
    Optional<Deployment> next) {
  public OutcomeResult {
    toStop = List.copyOf(toStop);
    aborted = List.copyOf(aborted);
  }

  static OutcomeResult unchanged(String message) {
    return new OutcomeResult(
        false, message, List.of(), List.of(), 0, Optional.empty(), false, Optional.empty());
  }
}
