package io.livegate.cli.bench;

import io.livegate.cli.example.ExampleRepo;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Times what a person waits for at the start of a local command, in fresh JVMs started by the
 * {@code ./livegate} script, as a person runs them (its class-data-sharing archive and JVM flags
 * included): from {@code deploy} on an existing state directory to its first unit's plan, and
 * {@code status} on that state directory, beside a same-run baseline, {@code --version} (the JVM's
 * start and picocli). Run it from the repository root with {@code java -cp
 * cli/target/test-classes:cli/target/livegate.jar io.livegate.cli.bench.StartupBenchmark}
 * (docs/benchmarks.md); {@code --repo DIR} names another checkout's script, to compare builds. An
 * untimed first run lets the script build the jar and its archive if the sources are newer.
 */
public final class StartupBenchmark {
  private static final int RUNS = 3;

  private StartupBenchmark() {}

  public static void main(String[] args) throws Exception {
    Path checkout = Path.of("");
    for (int i = 0; i < args.length; i++) {
      if (args[i].equals("--repo")) {
        checkout = Path.of(args[++i]);
      } else {
        throw new IllegalArgumentException("unknown option " + args[i]);
      }
    }
    Path script = checkout.toAbsolutePath().resolve("livegate");
    Path dir = checkout.toAbsolutePath().resolve("cli/target/startup-bench");
    if (!Files.isExecutable(script)) {
      throw new IllegalStateException(script + " is missing: --repo names a livegate checkout");
    }
    deleteTree(dir);
    Path live = dir.resolve("live");
    Path state = dir.resolve("state");
    ExampleRepo.create(live);

    // untimed: the script rebuilds the jar and its archive first when the sources are newer
    timed(script, dir, null, "--version");
    List<Long> version = new ArrayList<>();
    for (int i = 0; i < RUNS; i++) {
      version.add(timed(script, dir, null, "--version"));
    }
    // The state directory the measured runs find: one earlier deployment in it.
    timed(script, dir, null, deploy(live, state));
    List<Long> toPlan = new ArrayList<>();
    for (int i = 0; i < RUNS; i++) {
      Path unit = live.resolve("shared-services-account/global/main.tf");
      Files.writeString(unit, Files.readString(unit) + "\n# change " + i + "\n");
      git(live, "commit", "-qam", "change " + i);
      toPlan.add(timed(script, dir, "] Plan", deploy(live, state)));
    }
    List<Long> status = new ArrayList<>();
    for (int i = 0; i < RUNS; i++) {
      status.add(timed(script, dir, null, "status", "--state-dir", state.toString()));
    }
    System.out.println("startup, median of " + RUNS + " fresh JVMs (each run's figures, ms):");
    print("--version (baseline: JVM and picocli)", version);
    print("deploy to the first unit's Plan (existing state dir)", toPlan);
    print("status (existing state dir, no run holding it)", status);
  }

  private static String[] deploy(Path live, Path state) {
    return new String[] {
      "deploy",
      "--repo",
      live.toString(),
      "--base",
      "HEAD~1",
      "--accounts",
      live.resolve(ExampleRepo.ACCOUNTS_FILE).toString(),
      "--runner",
      "terraform",
      "--auto-approve",
      "--port",
      "0",
      "--state-dir",
      state.toString()
    };
  }

  /**
   * Milliseconds from starting the command to its exit, or to the first output line containing
   * {@code until} (it then runs to its end unmeasured).
   */
  private static long timed(Path script, Path dir, String until, String... args) throws Exception {
    List<String> command = new ArrayList<>(List.of(script.toString()));
    command.addAll(List.of(args));
    long start = System.nanoTime();
    Process process =
        new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true).start();
    long seen = -1;
    StringBuilder output = new StringBuilder();
    try (BufferedReader lines =
        new BufferedReader(
            new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
      for (String line = lines.readLine(); line != null; line = lines.readLine()) {
        if (seen < 0 && until != null && line.contains(until)) {
          seen = System.nanoTime();
        }
        output.append(line).append('\n');
      }
    }
    long end = System.nanoTime();
    if (!process.waitFor(10, TimeUnit.MINUTES) || process.exitValue() != 0) {
      throw new IllegalStateException(String.join(" ", args) + " failed:\n" + output);
    }
    if (until != null && seen < 0) {
      throw new IllegalStateException("never saw '" + until + "':\n" + output);
    }
    return TimeUnit.NANOSECONDS.toMillis((until == null ? end : seen) - start);
  }

  private static void print(String what, List<Long> runs) {
    List<Long> sorted = new ArrayList<>(runs);
    sorted.sort(Long::compare);
    System.out.printf("  %-55s %6d   %s%n", what, sorted.get(sorted.size() / 2), runs);
  }

  private static void git(Path repo, String... args) throws Exception {
    List<String> command = new ArrayList<>(List.of("git", "-C", repo.toString()));
    command.addAll(List.of(args));
    Process process = new ProcessBuilder(command).inheritIO().start();
    if (process.waitFor() != 0) {
      throw new IllegalStateException("git " + String.join(" ", args) + " failed");
    }
  }

  private static void deleteTree(Path root) throws IOException {
    if (!Files.exists(root)) {
      return;
    }
    try (var paths = Files.walk(root)) {
      for (Path path : paths.sorted(java.util.Comparator.reverseOrder()).toList()) {
        Files.delete(path);
      }
    }
  }
}
