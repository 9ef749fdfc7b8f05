package io.livegate.core;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadFactory;

/**
 * livegate's worker threads: named for what they do (a thread dump reads {@code livegate-plan}),
 * and daemons, so that a pool left behind by an interrupted scan or deploy never keeps the JVM from
 * exiting; what must finish first is waited for by whoever owns the pool.
 */
public final class DaemonThreads {
  private DaemonThreads() {}

  /** Daemon threads that all carry {@code name}. */
  public static ThreadFactory named(String name) {
    return runnable -> {
      Thread thread = new Thread(runnable, name);
      thread.setDaemon(true);
      return thread;
    };
  }

  /** A pool of {@code threads} daemon threads named {@code name}. */
  public static ExecutorService pool(int threads, String name) {
    return Executors.newFixedThreadPool(threads, named(name));
  }

  /** One daemon thread named {@code name} that runs scheduled work. */
  public static ScheduledExecutorService timer(String name) {
    return Executors.newSingleThreadScheduledExecutor(named(name));
  }
}
