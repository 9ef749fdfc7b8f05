package io.livegate.sql.testing;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.IntFunction;

/**
 * Runs tasks on threads that a latch releases at the same moment, so that they race in the metadb
 * as callers arriving together do.
 */
public final class Together {
  private Together() {}

  /**
   * Runs {@code task} for 0 to {@code threads - 1}, each on its own thread, all released together.
   *
   * @return the results in task order
   */
  public static <T> List<T> run(int threads, IntFunction<T> task) {
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      CountDownLatch start = new CountDownLatch(1);
      List<Future<T>> futures = new ArrayList<>();
      for (int index = 0; index < threads; index++) {
        int taskIndex = index;
        futures.add(
            pool.submit(
                () -> {
                  start.await();
                  return task.apply(taskIndex);
                }));
      }
      start.countDown();
      List<T> results = new ArrayList<>();
      for (Future<T> future : futures) {
        results.add(future.get(2, TimeUnit.MINUTES));
      }
      return results;
    } catch (ExecutionException e) {
      throw new IllegalStateException("a racing task failed", e.getCause());
    } catch (InterruptedException | TimeoutException e) {
      throw new IllegalStateException("the racing tasks did not finish", e);
    } finally {
      pool.shutdownNow();
    }
  }
}
