package io.livegate.cli.local;

import io.livegate.core.LivegateException;
import io.livegate.core.deploy.Deployment;
import io.livegate.core.deploy.Execution;
import io.livegate.core.unit.Workspaces;
import io.livegate.scan.ThrowawayCopy;
import io.livegate.scan.repo.Checkout;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.Optional;

/**
 * Where the local runtime runs a unit command: a fresh copy ({@link ThrowawayCopy}) of the live
 * repository for the merge commit (its state may live in the working tree), or for the destroy of a
 * deleted unit of a checkout of the base commit in the state directory, where the unit's config and
 * includes are as they were. A state file left in the live working tree's copy of that unit is not
 * in the checkout: the destroy refuses rather than plan against no state.
 *
 * <p>Every command gets a copy of its own, so what the code writes (a file planted in another
 * unit's directory, a sibling account's or the repository root) is gone with it: no other unit and
 * no later command sees it. A plan's copy is deleted once the plan file is kept. An apply's copy
 * lives in the repository's git directory, {@code .git/livegate/applies/<execution>} (like git's
 * own worktrees: on the checkout's file system, out of {@code git status}; each command's sandbox
 * shows it only its own copy there), under the execution's name, so that a run resumed after
 * livegate died finds what an apply that outlived it wrote. Not in the state directory: the state
 * terraform writes during the apply is in the copy, and a state directory whose disk filled would
 * cost terraform the state it had just changed, which the checkout's disk never did. At the apply's
 * end the unit's local state, and only that, goes back to the checkout ({@link UnitLocalState}),
 * where the unit's next plan and its dependents' {@code terraform_remote_state} read it, and the
 * copy is deleted.
 */
final class LocalWorkspaces implements Workspaces {
  private static final String LOCAL_STATE_FILE = "terraform.tfstate";
  private static final String GITDIR = "gitdir:";

  private final Path repositoryRoot;
  private final Path baseCheckouts;
  private final Path applyWorkspaces;

  LocalWorkspaces(Path repositoryRoot, Path baseCheckouts) {
    this.repositoryRoot = repositoryRoot;
    this.baseCheckouts = baseCheckouts;
    this.applyWorkspaces = applyWorkspaces(repositoryRoot);
  }

  /**
   * Where the applies' copies of the repository at {@code repositoryRoot} are, one per execution:
   * in its git directory, which is the one a linked worktree's {@code .git} file names.
   */
  static Path applyWorkspaces(Path repositoryRoot) {
    Path git = repositoryRoot.toAbsolutePath().normalize().resolve(".git");
    Path gitDirectory = git;
    if (Files.isRegularFile(git, LinkOption.NOFOLLOW_LINKS)) {
      try {
        String named = Files.readString(git).strip();
        if (!named.startsWith(GITDIR)) {
          throw new LivegateException(git + " names no git directory (\"" + GITDIR + " ...\")");
        }
        gitDirectory = git.resolveSibling(named.substring(GITDIR.length()).strip()).normalize();
      } catch (IOException e) {
        throw new LivegateException("cannot read " + git + ": " + e.getMessage(), e);
      }
    }
    return gitDirectory.resolve("livegate").resolve("applies");
  }

  @Override
  public Workspace toPlan(Deployment deployment, Execution execution) {
    return ThrowawayCopy.of(checkout(deployment, execution));
  }

  @Override
  public Workspace toApply(Deployment deployment, Execution execution) {
    Path checkout = checkout(deployment, execution);
    ThrowawayCopy copy =
        ThrowawayCopy.resumable(checkout, applyWorkspaces.resolve(execution.name()));
    return new Workspace() {
      @Override
      public Path root() {
        return copy.root();
      }

      /** The state first: a copy whose state could not be kept stays, and the error names it. */
      @Override
      public void close() {
        UnitLocalState.keep(copy.root(), checkout, execution.unit());
        copy.close();
      }
    };
  }

  private Path checkout(Deployment deployment, Execution execution) {
    if (!execution.destroy()) {
      return repositoryRoot;
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
      return new Checkout(live.toString(), Optional.empty()).at(baseCheckouts.resolve(base), base);
    }
  }
}
