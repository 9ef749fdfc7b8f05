package io.livegate.cli.bench;

import io.livegate.cli.local.ServerLoad;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.stream.Stream;

/**
 * How long a signed delivery (GitHub's {@code ping}) and a vote answer take on {@code livegate
 * serve} in a 512 MB heap, idle (the same-run baseline) and under issue 24's load ({@link
 * ServerLoad}: 2,000 slow connections and 40 clients posting 25 MB unsigned bodies over and over).
 * Run it as docs/benchmarks.md says; {@code --runs N} times each request N times (default 10).
 */
public final class ServerLoadBenchmark {
  private ServerLoadBenchmark() {}

  public static void main(String[] args) throws Exception {
    int runs = 10;
    for (int i = 0; i < args.length; i++) {
      if (args[i].equals("--runs")) {
        runs = Integer.parseInt(args[++i]);
      } else {
        throw new IllegalArgumentException("unknown option " + args[i]);
      }
    }
    Path dir = Files.createTempDirectory("server-load-bench");
    try {
      run(dir, runs);
    } finally {
      try (Stream<Path> tree = Files.walk(dir)) {
        tree.sorted(Comparator.reverseOrder()).map(Path::toFile).forEach(File::delete);
      }
    }
  }

  private static void run(Path dir, int runs) throws Exception {
    try (ServerLoad load = ServerLoad.serve(dir)) {
      // warm-up: class loading and JIT of both paths, not measured
      for (int i = 0; i < 5; i++) {
        check(load.ping(), 200);
        check(load.vote(), 403);
      }
      List<Long> idleDelivery = timed(runs, load::ping, 200);
      List<Long> idleVote = timed(runs, load::vote, 403);
      long start = System.nanoTime();
      load.press();
      while (load.bigAnswered() < 2 * ServerLoad.BIG && load.serveAlive()) {
        Thread.sleep(50);
      }
      System.out.printf(
          "load on: %d slow connections opened and %d big bodies answered after %d ms%n",
          ServerLoad.IDLE, load.bigAnswered(), (System.nanoTime() - start) / 1_000_000);
      if (!load.serveAlive()) {
        String log = load.serveLog();
        System.out.println(
            "serve ended under the load; the end of its output:\n"
                + log.substring(Math.max(0, log.length() - 2000)));
        throw new IllegalStateException("serve ended under the load");
      }
      List<Long> loadedDelivery;
      List<Long> loadedVote;
      try {
        loadedDelivery = timed(runs, load::ping, 200);
        loadedVote = timed(runs, load::vote, 403);
      } catch (IOException | UncheckedIOException e) {
        System.out.println("under load a request failed: " + e);
        printServe(load);
        throw new IllegalStateException("a request under the load failed", e);
      }
      System.out.println("ms per request, " + runs + " runs each (median / max):");
      print("signed delivery (ping), idle server (baseline)", idleDelivery);
      print("signed delivery (ping), under load", loadedDelivery);
      print("vote answer (POST /vote, 403), idle server (baseline)", idleVote);
      print("vote answer (POST /vote, 403), under load", loadedVote);
      printServe(load);
    }
  }

  private static void printServe(ServerLoad load) throws IOException {
    System.out.println(
        "slow connections still open: " + load.idleStillOpen() + " of " + ServerLoad.IDLE);
    System.out.println("big unsigned bodies answered, by status: " + load.bigAnswers());
    System.out.println(
        "serve (-Xmx512m -XX:+ExitOnOutOfMemoryError) still running: "
            + load.serveAlive()
            + "; OutOfMemoryError in its output: "
            + load.serveLog().contains("OutOfMemoryError"));
  }

  private static List<Long> timed(int runs, Callable<HttpResponse<String>> request, int status)
      throws Exception {
    List<Long> millis = new ArrayList<>();
    for (int i = 0; i < runs; i++) {
      long start = System.nanoTime();
      check(request.call(), status);
      millis.add((System.nanoTime() - start) / 1_000_000);
    }
    return millis;
  }

  /** A ping is 200 "pong"; a vote with a link serve never sent is 403, its page saying so. */
  private static void check(HttpResponse<String> response, int status) {
    if (response.statusCode() != status) {
      throw new IllegalStateException("answered " + response.statusCode() + ": " + response.body());
    }
  }

  private static void print(String what, List<Long> millis) {
    List<Long> sorted = new ArrayList<>(millis);
    sorted.sort(Comparator.naturalOrder());
    System.out.printf(
        "  %-52s %6d / %6d   %s%n",
        what, sorted.get(sorted.size() / 2), sorted.get(sorted.size() - 1), millis);
  }
}
