package io.livegate.core.runner;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The JVM's shutdown in livegate's order, as one shutdown hook: the JVM runs its hooks all at once,
 * so a hook deleting {@link PrivateTemp}'s files could delete a running terraform's output while
 * another hook is still closing the metadb under the flows that read it. Here the closing steps
 * (the vote server, the metadb, the state directory's lock; each command's own, most recent first)
 * run, one after the other, before the temporary files go.
 */
public final class Shutdown {
  private static final List<Runnable> CLOSING = new CopyOnWriteArrayList<>();
  private static final List<Runnable> TEMPORARY_FILES = new CopyOnWriteArrayList<>();

  static {
    Runtime.getRuntime().addShutdownHook(new Thread(Shutdown::run, "livegate-shutdown"));
  }

  private Shutdown() {}

  /**
   * Runs {@code step} at the JVM's exit, before the temporary files are deleted, unless it is
   * {@link #cancel cancelled} first (a command that closed what it opened).
   */
  public static void closing(Runnable step) {
    CLOSING.add(0, step);
  }

  /** The step no longer runs at the JVM's exit. */
  public static void cancel(Runnable step) {
    CLOSING.remove(step);
  }

  /** Runs {@code step} at the JVM's exit, after every closing step. */
  static void temporaryFiles(Runnable step) {
    TEMPORARY_FILES.add(step);
  }

  private static void run() {
    for (List<Runnable> phase : List.of(CLOSING, TEMPORARY_FILES)) {
      for (Runnable step : phase) {
        try {
          step.run();
        } catch (RuntimeException e) {
          // the JVM is exiting: the next step still runs
          System.err.println("livegate: at shutdown: " + e.getMessage());
        }
      }
    }
  }
}
