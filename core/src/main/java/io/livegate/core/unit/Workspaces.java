package io.livegate.core.unit;

import io.livegate.core.deploy.Deployment;
import io.livegate.core.deploy.Execution;
import java.nio.file.Path;

/**
 * Where one unit command runs: a checkout of the deployment's commit that the command needs. A plan
 * runs the code before anyone voted, so a runtime gives it a throwaway workspace where it can,
 * whose writes no other unit and no later command sees: only the plan file crosses back, hashed.
 */
@FunctionalInterface
public interface Workspaces {
  /**
   * The commit a unit command runs at: the merge commit, or for the destroy of a deleted unit the
   * base commit, where the unit and its includes still are.
   */
  static String commitOf(Deployment deployment, Execution execution) {
    return execution.destroy()
        ? deployment.pullRequest().baseCommit()
        : deployment.pullRequest().mergeCommit();
  }

  /**
   * A checkout of {@link #commitOf} for the plan of {@code execution}: by default the one its apply
   * gets, for a runtime whose every command gets a fresh one anyway.
   */
  default Workspace toPlan(Deployment deployment, Execution execution) {
    return toApply(deployment, execution);
  }

  /** A checkout of {@link #commitOf} for the apply (or destroy) of {@code execution}. */
  Workspace toApply(Deployment deployment, Execution execution);

  /** One command's checkout; closing it lets the runtime reclaim it. */
  @FunctionalInterface
  interface Workspace extends AutoCloseable {
    Path root();

    @Override
    default void close() {}
  }
}
