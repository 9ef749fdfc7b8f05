package io.livegate.scan.bench;

import io.livegate.core.ProgressListener;
import io.livegate.core.account.Accounts;
import io.livegate.core.stack.DeployStack;
import io.livegate.core.stack.PlannedExecution;
import io.livegate.scan.GraphScan;
import io.livegate.scan.ScanCommand;
import io.livegate.scan.graph.UnitGraph;
import io.livegate.scan.repo.GitRepo;
import io.livegate.scan.repo.GitSourceCache;
import io.livegate.scan.repo.SourceAccess;
import io.livegate.scan.terragrunt.TerragruntVersion;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.ToDoubleFunction;

/**
 * The graph-scan benchmark: for each size, the time of a whole {@link GraphScan} against a baseline
 * measured in the same run, reading every file of the work tree from disk. Run it with {@code
 * ./mvnw -q -pl core -am -Pbench test-compile exec:java}; see docs/benchmarks.md.
 *
 * <p>Arguments are {@code name=value}: {@code units} (comma-separated sizes), {@code dir} (where
 * generated repositories are cached), {@code warmups} and {@code warmupSeconds} (warm-up goes on
 * until both are reached), {@code runs}, and {@code parallelism} (0 for one thread per core).
 */
public final class GraphScanBenchmark {
  /** A cap on warm-up runs, whatever the time budget says. */
  private static final int MAX_WARMUPS = 40;

  private record Settings(
      int[] sizes, Path dir, int warmups, double warmupSeconds, int runs, int parallelism) {}

  private record Measured(
      int units,
      double scanSeconds,
      double baselineSeconds,
      double bestScanSeconds,
      double bestBaselineSeconds,
      double gcSeconds,
      double peakHeapMiB,
      double liveBeforeMiB,
      int changeSet,
      int layers) {

    double perUnitMicros(double seconds) {
      return seconds / units * 1e6;
    }
  }

  private GraphScanBenchmark() {}

  public static void main(String[] args) {
    Settings settings = settings(options(args));
    System.out.printf(
        Locale.ROOT,
        "graph-scan benchmark: sizes %s; warm-up: at least %d runs and %.0f s; then %d measured"
            + " runs; scan parallelism %d; %d cores; max heap %.0f MiB; Java %s%n",
        Arrays.toString(settings.sizes()),
        settings.warmups(),
        settings.warmupSeconds(),
        settings.runs(),
        settings.parallelism(),
        Runtime.getRuntime().availableProcessors(),
        Runtime.getRuntime().maxMemory() / 1048576.0,
        System.getProperty("java.version"));
    System.out.println("work dir: " + settings.dir());

    List<Measured> results = new ArrayList<>();
    for (int size : settings.sizes()) {
      results.add(measure(settings, size));
    }
    summary(results, settings.runs());
  }

  private static Measured measure(Settings settings, int units) {
    System.out.printf(Locale.ROOT, "%n== %,d units ==%n", units);
    SyntheticLiveRepo.Generated repo =
        SyntheticLiveRepo.obtain(settings.dir(), units, line -> System.out.println("  " + line));
    System.out.printf(
        Locale.ROOT,
        "  repo: %s; %,d declared dependencies (%.2f per unit); %s%n",
        repo.directory(),
        repo.dependencies(),
        repo.dependencies() / (double) repo.units(),
        repo.packStatistics());
    System.out.println(
        "  change commit edits units "
            + repo.touchedUnits()
            + " and "
            + SyntheticLiveRepo.CHANGED_ENVCOMMON);
    System.out.println("  the scan's own graph: " + graphFacts(repo, settings.parallelism()));
    ScanCommand command =
        ScanCommand.builder(repo.directory(), Accounts.wholeRepository())
            .base(repo.base())
            .head(repo.head())
            .parallelism(settings.parallelism())
            .build();

    // The JIT keeps improving for many small scans, so warm-up has a time budget as well as a
    // count.
    long warmupStart = System.nanoTime();
    List<String> warmupTimes = new ArrayList<>();
    for (int i = 1;
        i <= MAX_WARMUPS
            && (i <= settings.warmups()
                || (System.nanoTime() - warmupStart) / 1e9 < settings.warmupSeconds());
        i++) {
      long start = System.nanoTime();
      scan(command);
      double scan = (System.nanoTime() - start) / 1e9;
      start = System.nanoTime();
      readWorkTree(repo.directory());
      double baseline = (System.nanoTime() - start) / 1e9;
      warmupTimes.add(String.format(Locale.ROOT, "%.3f/%.3f", scan, baseline));
    }
    System.out.println("  warm-up runs (scan/baseline s): " + String.join(" ", warmupTimes));

    double[] scans = new double[settings.runs()];
    double[] baselines = new double[settings.runs()];
    double[] gcs = new double[settings.runs()];
    DeployStack stack = null;
    long[] read = null;
    for (int i = 0; i < settings.runs(); i++) {
      // Scan and baseline alternate, so that noise on this machine hits both alike. No System.gc()
      // here: after a full collection G1 shrinks the heap, and the next scan pays for regrowing it.
      long gcBefore = gcMillis();
      long start = System.nanoTime();
      stack = scan(command);
      scans[i] = (System.nanoTime() - start) / 1e9;
      gcs[i] = (gcMillis() - gcBefore) / 1e3;
      start = System.nanoTime();
      read = readWorkTree(repo.directory());
      baselines[i] = (System.nanoTime() - start) / 1e9;
      System.out.printf(
          Locale.ROOT,
          "  run %d: scan %.3f s (GC pauses %.3f s), baseline %.3f s%n",
          i + 1,
          scans[i],
          gcs[i],
          baselines[i]);
    }
    // Heap is measured in one more scan, untimed, that starts from a collected heap.
    double liveBefore = collectAndResetPeaks();
    scan(command);
    double peakHeap = heapPeakMiB();
    System.out.printf(
        Locale.ROOT,
        "  heap scan: live heap %.0f MiB before (after System.gc()), peak %.0f MiB%n",
        liveBefore,
        peakHeap);
    int layers = stack.executions().stream().mapToInt(PlannedExecution::layer).max().orElse(-1) + 1;
    System.out.printf(
        Locale.ROOT,
        "  baseline reads %,d files, %.1f MiB, from the work tree%n",
        read[0],
        read[1] / 1048576.0);
    System.out.printf(
        Locale.ROOT,
        "  deploy stack: %,d units in %d layers (%d deleted, %d warnings)%n",
        stack.executions().size(),
        layers,
        stack.deleted().size(),
        stack.warnings().size());
    return new Measured(
        units,
        median(scans),
        median(baselines),
        Arrays.stream(scans).min().orElseThrow(),
        Arrays.stream(baselines).min().orElseThrow(),
        median(gcs),
        peakHeap,
        liveBefore,
        stack.executions().size(),
        layers);
  }

  /** What the scan's reader makes of the head commit, to check the generator against it. */
  private static String graphFacts(SyntheticLiveRepo.Generated repo, int parallelism) {
    try (GitRepo git = GitRepo.open(repo.directory())) {
      UnitGraph graph =
          UnitGraph.read(
              git.tree(repo.head()),
              Accounts.wholeRepository(),
              Map.of(),
              TerragruntVersion.DEFAULT,
              parallelism,
              ProgressListener.silent(),
              false,
              new GitSourceCache(SourceAccess.in(repo.directory().resolveSibling("state"))));
      long edges =
          graph.units().stream().mapToLong(unit -> graph.config(unit).dependencies().size()).sum();
      return String.format(
          Locale.ROOT,
          "%,d units, %,d dependency edges (%.2f per unit)",
          graph.units().size(),
          edges,
          edges / (double) graph.units().size());
    }
  }

  private static DeployStack scan(ScanCommand command) {
    return new GraphScan(ProgressListener.silent()).run(command);
  }

  /** Walks the work tree, skipping .git, and reads every file's bytes: {files, bytes}. */
  static long[] readWorkTree(Path root) {
    long[] counts = new long[2];
    try {
      Files.walkFileTree(
          root,
          new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) {
              return dir.getFileName().toString().equals(".git")
                  ? FileVisitResult.SKIP_SUBTREE
                  : FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attrs)
                throws IOException {
              counts[0]++;
              counts[1] += Files.readAllBytes(file).length;
              return FileVisitResult.CONTINUE;
            }
          });
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return counts;
  }

  /** Collects garbage, resets the heap pools' peaks, and returns the live heap in MiB. */
  private static double collectAndResetPeaks() {
    System.gc();
    long used = 0;
    for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
      if (pool.getType() == MemoryType.HEAP) {
        pool.resetPeakUsage();
        used += pool.getUsage().getUsed();
      }
    }
    return used / 1048576.0;
  }

  /**
   * The sum of the heap pools' peak usage since the last reset. Pools peak at different moments, so
   * this is an upper bound of the heap in use at any one time, garbage not yet collected included.
   */
  private static double heapPeakMiB() {
    long peak = 0;
    for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
      if (pool.getType() == MemoryType.HEAP) {
        peak += pool.getPeakUsage().getUsed();
      }
    }
    return peak / 1048576.0;
  }

  /** The collectors' accumulated collection time; for G1 on Java 17 that is stop-the-world time. */
  private static long gcMillis() {
    long total = 0;
    for (GarbageCollectorMXBean collector : ManagementFactory.getGarbageCollectorMXBeans()) {
      total += Math.max(0, collector.getCollectionTime());
    }
    return total;
  }

  private static void summary(List<Measured> results, int runs) {
    System.out.printf(
        Locale.ROOT,
        "%nSummary. Times are medians of %d measured runs after warm-up. scan = GraphScan.run end"
            + " to end (open repo, list head tree, read and evaluate every unit, diff, layering);"
            + " baseline = walk the work tree (skipping .git) and read every file's bytes, on one"
            + " thread; gc = GC pause time during the scan; peak = sum of the heap pools' peak"
            + " usage during one more scan started after System.gc(), an upper bound that includes garbage not"
            + " yet collected and the live heap before the scan (live). best = the fastest"
            + " measured run, less sensitive to other load on the machine.%n",
        runs);
    System.out.printf(
        Locale.ROOT,
        "%9s %8s %10s %6s %10s %10s %12s %7s %9s %9s %8s %7s %17s%n",
        "units",
        "scan s",
        "baseline s",
        "ratio",
        "scan us/u",
        "base us/u",
        "scan-gc us/u",
        "gc s",
        "peak MiB",
        "live MiB",
        "change",
        "layers",
        "best scan/base s");
    for (Measured result : results) {
      System.out.printf(
          Locale.ROOT,
          "%,9d %8.3f %10.3f %6.2f %10.1f %10.1f %12.1f %7.3f %9.0f %9.0f %,8d %7d %10.3f/%.3f%n",
          result.units(),
          result.scanSeconds(),
          result.baselineSeconds(),
          result.scanSeconds() / result.baselineSeconds(),
          result.perUnitMicros(result.scanSeconds()),
          result.perUnitMicros(result.baselineSeconds()),
          result.perUnitMicros(result.scanSeconds() - result.gcSeconds()),
          result.gcSeconds(),
          result.peakHeapMiB(),
          result.liveBeforeMiB(),
          result.changeSet(),
          result.layers(),
          result.bestScanSeconds(),
          result.bestBaselineSeconds());
    }
    Measured tenThousand = find(results, 10_000);
    Measured hundredThousand = find(results, 100_000);
    if (tenThousand != null) {
      double ratio = tenThousand.scanSeconds() / tenThousand.baselineSeconds();
      System.out.printf(
          Locale.ROOT,
          "goal 1, scan <= 3x baseline at 10,000 units: %.2fx (best runs: %.2fx), %s%n",
          ratio,
          tenThousand.bestScanSeconds() / tenThousand.bestBaselineSeconds(),
          ratio <= 3 ? "met" : "NOT met");
    }
    if (tenThousand != null && hundredThousand != null) {
      System.out.printf(
          Locale.ROOT,
          "goal 2, linear growth from 10k to 100k: per-unit time 100k/10k = %.2f for the scan"
              + " (%.2f without GC pauses; %.2f for the best runs), %.2f for the baseline;"
              + " 1.00 is linear%n",
          growth(tenThousand, hundredThousand, Measured::scanSeconds),
          growth(tenThousand, hundredThousand, m -> m.scanSeconds() - m.gcSeconds()),
          growth(tenThousand, hundredThousand, Measured::bestScanSeconds),
          growth(tenThousand, hundredThousand, Measured::baselineSeconds));
    }
  }

  private static double growth(Measured small, Measured large, ToDoubleFunction<Measured> seconds) {
    return large.perUnitMicros(seconds.applyAsDouble(large))
        / small.perUnitMicros(seconds.applyAsDouble(small));
  }

  private static Measured find(List<Measured> results, int units) {
    return results.stream().filter(result -> result.units() == units).findFirst().orElse(null);
  }

  private static double median(double[] values) {
    double[] sorted = values.clone();
    Arrays.sort(sorted);
    int middle = sorted.length / 2;
    return sorted.length % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
  }

  private static Settings settings(Map<String, String> options) {
    int[] sizes =
        Arrays.stream(options.getOrDefault("units", "1000,10000,100000").split(","))
            .map(String::strip)
            .filter(size -> !size.isEmpty())
            .mapToInt(Integer::parseInt)
            .toArray();
    int parallelism = Integer.parseInt(options.getOrDefault("parallelism", "0"));
    return new Settings(
        sizes,
        Path.of(options.getOrDefault("dir", "target/bench/graph-scan")).toAbsolutePath(),
        Integer.parseInt(options.getOrDefault("warmups", "3")),
        Double.parseDouble(options.getOrDefault("warmupSeconds", "20")),
        Integer.parseInt(options.getOrDefault("runs", "5")),
        parallelism > 0 ? parallelism : Runtime.getRuntime().availableProcessors());
  }

  /** {@code name=value} arguments; an empty or unresolved Maven value keeps the default. */
  private static Map<String, String> options(String[] args) {
    Map<String, String> options = new LinkedHashMap<>();
    for (String arg : args) {
      int equals = arg.indexOf('=');
      if (equals < 0) {
        throw new IllegalArgumentException("arguments are name=value, not '" + arg + "'");
      }
      String value = arg.substring(equals + 1).strip();
      if (!value.isEmpty() && !value.startsWith("${")) {
        options.put(arg.substring(0, equals).strip(), value);
      }
    }
    return options;
  }
}
