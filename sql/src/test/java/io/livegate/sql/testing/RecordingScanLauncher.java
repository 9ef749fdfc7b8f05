package io.livegate.sql.testing;

import io.livegate.core.deploy.Deployment;
import io.livegate.core.deploy.ScanLauncher;
import java.util.ArrayList;
import java.util.List;

/**
 * Records the deployments whose scan was launched. It stands in for create-deploy-stack's ECS task,
 * which the moto-backed suites of the tests module cover; a test stores the stack itself. {@link
 * #failNext} makes the next launch throw, as RunTask does when ECS refuses.
 */
public final class RecordingScanLauncher implements ScanLauncher {
  private final List<Long> launched = new ArrayList<>();
  private String failure;

  @Override
  public synchronized void launch(Deployment deployment) {
    if (failure != null) {
      String message = failure;
      failure = null;
      throw new IllegalStateException(message);
    }
    launched.add(deployment.id());
  }

  /** The next launch throws with {@code message} and records nothing. */
  public synchronized void failNext(String message) {
    failure = message;
  }

  public synchronized List<Long> launched() {
    return List.copyOf(launched);
  }
}
