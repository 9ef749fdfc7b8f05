package io.livegate.sql.testing;

import io.livegate.core.deploy.Execution;
import io.livegate.core.deploy.FlowLauncher;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * A flow launcher that keeps its flows in memory and keeps Step Functions' promise: a flow exists
 * once per execution name, so starting a name again creates nothing, and stopping a flow that does
 * not run changes nothing. The trigger's use case needs only this contract, so its tests need no
 * AWS; the AWS adapter ({@code SfnFlows}) is for the moto-backed suites of the tests module to
 * cover. Recording every call lets a test show that a repeated start is harmless.
 */
public final class InMemoryFlowLauncher implements FlowLauncher {
  private final Set<String> flows = new LinkedHashSet<>();
  private final Set<String> running = new LinkedHashSet<>();
  private final List<String> stopped = new ArrayList<>();
  private final List<String> startCalls = new ArrayList<>();

  @Override
  public synchronized void start(Execution execution) {
    startCalls.add(execution.name());
    if (flows.add(execution.name())) {
      running.add(execution.name());
    }
  }

  @Override
  public synchronized void stop(Execution execution, String cause) {
    if (running.remove(execution.name())) {
      stopped.add(execution.name() + ": " + cause);
    }
  }

  /** Every flow created, by execution name, in the order created. */
  public synchronized List<String> flows() {
    return List.copyOf(flows);
  }

  /** Every flow that was stopped while it ran, as "name: cause". */
  public synchronized List<String> stopped() {
    return List.copyOf(stopped);
  }

  /** Every call to {@link #start}, repeated ones included. */
  public synchronized List<String> startCalls() {
    return List.copyOf(startCalls);
  }
}
