package io.livegate.core.unit;

import io.livegate.core.deploy.Deployment;
import io.livegate.core.deploy.Execution;
import java.nio.file.Path;

/** Where one unit command runs: a checkout of the deployment's commit that the command needs. */
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

  /** A checkout of {@link #commitOf} for one command of {@code execution}. */
  Workspace open(Deployment deployment, Execution execution);

  /** One command's checkout; closing it lets the runtime reclaim it. */
  @FunctionalInterface
  interface Workspace extends AutoCloseable {
    Path root();

    @Override
    default void close() {}
  }
}
