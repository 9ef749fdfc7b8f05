package io.livegate.cli.local;

import io.livegate.core.LivegateException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The local runtime's state directory: the metadb's data, saved plans, the execution logs, the mail
 * outbox, the vote-link secret, pull requests' checkouts while they are planned, and the base
 * commits that destroys of deleted units plan from. It persists, so a second run sees the history
 * and a killed run can resume. Only its owner can read it: it is made (or, from before this rule,
 * changed) to mode 0700, with nothing inside readable by group or others.
 */
public final class StateDirectory {
  private final Path root;

  private StateDirectory(Path root) {
    this.root = root;
  }

  /**
   * The state directory {@code root}, made if missing, and nothing in it touched: where its lock
   * ({@link StateDirectoryLock}) is taken before {@link #at} makes the rest and restricts modes,
   * since another run may be writing and deleting files in it.
   */
  public static Path create(Path root) {
    try {
      Path absolute = root.toAbsolutePath().normalize();
      Files.createDirectories(absolute);
      return absolute;
    } catch (IOException e) {
      throw new LivegateException(
          "cannot use " + root + " as the state directory: " + e.getMessage(), e);
    }
  }

  /** The state directory {@code root}, made and restricted; its lock is taken already. */
  public static StateDirectory at(Path root) {
    try {
      Path absolute = create(root);
      for (String dir : new String[] {"metadb", "plans", "outbox"}) {
        Files.createDirectories(absolute.resolve(dir));
      }
      OwnerOnly.restrict(absolute);
      return new StateDirectory(absolute);
    } catch (IOException e) {
      throw new LivegateException(
          "cannot use " + root + " as the state directory: " + e.getMessage(), e);
    }
  }

  /**
   * Fails unless {@code root} is a state directory that a run made (its metadb is there, or a run
   * that is making it holds its lock): for the commands that only act on what is there, where a
   * mistyped path must be an error, not a new empty directory.
   */
  public static void requireExisting(Path root) {
    Path absolute = root.toAbsolutePath().normalize();
    if (!Files.isRegularFile(absolute.resolve("metadb").resolve("PG_VERSION"))
        && !Files.isRegularFile(absolute.resolve("lock"))) {
      throw new LivegateException(
          "there is no livegate state directory at "
              + absolute
              + " (no metadb in it); livegate deploy and demo make one");
    }
  }

  public Path root() {
    return root;
  }

  /** Where pull requests' heads are checked out while they are planned. */
  public Path pullRequests() {
    return root.resolve("pull-requests");
  }

  /** Where base commits are checked out for the destroys of the units that merges deleted. */
  public Path baseCheckouts() {
    return root.resolve("base-checkouts");
  }

  public Path metadb() {
    return root.resolve("metadb");
  }

  public Path plans() {
    return root.resolve("plans");
  }

  /** The execution logs: plan, apply and destroy output, one file per execution. */
  public Path logs() {
    return root.resolve("logs");
  }

  public Path outbox() {
    return root.resolve("outbox");
  }
}
