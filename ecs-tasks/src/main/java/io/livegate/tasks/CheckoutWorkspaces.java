package io.livegate.tasks;

import io.livegate.core.deploy.Deployment;
import io.livegate.core.deploy.Execution;
import io.livegate.core.unit.Workspaces;
import io.livegate.scan.repo.Checkout;
import java.nio.file.Path;

/**
 * Where the terra-run task runs a unit command: a checkout of the command's commit in the task's
 * workspace, which lives as long as the task's container.
 */
final class CheckoutWorkspaces implements Workspaces {
  private final Checkout checkout;
  private final Path directory;

  CheckoutWorkspaces(Checkout checkout, Path directory) {
    this.checkout = checkout;
    this.directory = directory;
  }

  @Override
  public Workspace open(Deployment deployment, Execution execution) {
    Path root = checkout.at(directory, Workspaces.commitOf(deployment, execution));
    return () -> root;
  }
}
