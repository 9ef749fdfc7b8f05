package io.livegate.cli.local;

import io.livegate.core.LivegateException;
import io.livegate.core.deploy.Deployment;
import io.livegate.core.deploy.Execution;
import io.livegate.core.unit.Workspaces;
import io.livegate.scan.ThrowawayCopy;
import io.livegate.scan.repo.Checkout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * Where the local runtime runs a unit command: the live repository for the merge commit (its state
 * may live in the working tree), or for the destroy of a deleted unit a checkout of the base commit
 * in the state directory, where the unit's config and includes are as they were. A state file left
 * in the live working tree's copy of that unit is not in the checkout: the destroy refuses rather
 * than plan against no state.
 *
 * <p>A plan runs in a {@link ThrowawayCopy} of that checkout: what the code being planned writes
 * before anyone voted (a file planted in another unit's directory, a sibling account's or the
 * repository root) is gone with the copy, and the apply runs the checkout as committed plus the
 * approved plan. The apply runs in the checkout itself, where the state it writes stays.
 */
final class LocalWorkspaces implements Workspaces {
  private static final String LOCAL_STATE_FILE = "terraform.tfstate";

  private final Path repositoryRoot;
  private final Path baseCheckouts;

  LocalWorkspaces(Path repositoryRoot, Path baseCheckouts) {
    this.repositoryRoot = repositoryRoot;
    this.baseCheckouts = baseCheckouts;
  }

  @Override
  public Workspace toPlan(Deployment deployment, Execution execution) {
    return ThrowawayCopy.of(toApply(deployment, execution).root());
  }

  @Override
  public Workspace toApply(Deployment deployment, Execution execution) {
    if (!execution.destroy()) {
      return () -> repositoryRoot;
    }
    Path live = Path.of(deployment.pullRequest().repository());
    Path inTree = live.resolve(execution.unit()).resolve(LOCAL_STATE_FILE);
    if (Files.exists(inTree)) {
      throw new LivegateException(
          "the state of the deleted unit "
              + execution.unit()
              + " is in "
              + inTree
              + ", inside the working tree; its destroy plans from a checkout of the base commit,"
              + " which does not hold that file, so nothing was destroyed. Keep state in a backend"
              + " outside the working tree (terragrunt's remote_state), or destroy it by hand");
    }
    String base = Workspaces.commitOf(deployment, execution);
    // Destroys of one deployment share the checkout: one at a time checks it out.
    synchronized (baseCheckouts) {
      Path checkout =
          new Checkout(live.toString(), Optional.empty()).at(baseCheckouts.resolve(base), base);
      return () -> checkout;
    }
  }
}
