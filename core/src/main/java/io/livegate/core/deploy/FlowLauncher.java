package io.livegate.core.deploy;

/**
 * Starts and stops the deploy flow of one execution (a Step Functions execution on AWS). Both are
 * idempotent: a flow that already exists under the execution's name counts as started, and stopping
 * a flow that has ended changes nothing.
 */
public interface FlowLauncher {
  void start(Execution execution);

  void stop(Execution execution, String cause);
}
