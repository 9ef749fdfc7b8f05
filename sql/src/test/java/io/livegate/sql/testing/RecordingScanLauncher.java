package io.livegate.sql.testing;

import io.livegate.core.deploy.Deployment;
import io.livegate.core.deploy.ScanLauncher;
import java.util.ArrayList;
import java.util.List;

/**
 * Records the deployments whose scan was launched. It stands in for create-deploy-stack's ECS task,
 * which the moto-backed suites of the tests module cover; a test stores the stack itself.
 */
public final class RecordingScanLauncher implements ScanLauncher {
  private final List<Long> launched = new ArrayList<>();

  @Override
  public synchronized void launch(Deployment deployment) {
    launched.add(deployment.id());
  }

  public synchronized List<Long> launched() {
    return List.copyOf(launched);
  }
}
