package io.livegate.cli.bench;

import io.livegate.cli.Livegate;
import io.livegate.cli.local.LocalWiring;
import io.livegate.core.deploy.Deployment;
import io.livegate.core.deploy.Execution;
import io.livegate.core.deploy.ExecutionStatus;
import io.livegate.scan.testing.TestRepo;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Times a real local deploy of a synthetic live repository and compares its wall time with the
 * bounds that the units' own work sets. Run it with {@code ./mvnw -q -Pbench -pl cli -am test
 * -DskipTests} (docs/benchmarks.md); options: {@code -Dbench.args="--units 50 --layers 8
 * --parallelism 2 --dir DIR"}.
 *
 * <p>The repository's base commit holds only a {@code .gitignore}; the head commit adds every unit,
 * so the merge deploys all of them. A unit is real terraform: one {@code terraform_data} whose
 * input reads the outputs of the units it depends on through {@code terraform_remote_state} with
 * the local backend, and a {@code terragrunt.hcl} with the matching {@code dependency} blocks for
 * the scan.
 *
 * <p>A unit's own time is its plan step plus its apply step, from the flow events the deploy
 * recorded (Plan to RequestApproval, Apply to Succeeded): everything else is livegate's.
 */
public final class DeployBenchmark {
  private static final String GITIGNORE =
      ".terraform/\n.terraform.lock.hcl\n*.tfstate\n*.tfstate.backup\n*.tfplan\n";

  private DeployBenchmark() {}

  public static void main(String[] args) throws IOException {
    int units = 50;
    int layers = 8;
    int parallelism = 2;
    Path dir = Path.of("target", "deploy-bench");
    for (int i = 0; i < args.length; i++) {
      String value = i + 1 < args.length ? args[i + 1] : "";
      switch (args[i]) {
        case "--units" -> units = Integer.parseInt(value);
        case "--layers" -> layers = Integer.parseInt(value);
        case "--parallelism" -> parallelism = Integer.parseInt(value);
        case "--dir" -> dir = Path.of(value);
        default -> throw new IllegalArgumentException("unknown option " + args[i]);
      }
      i++;
    }
    if (layers < 1 || units < layers) {
      throw new IllegalArgumentException("need at least one unit per layer");
    }
    dir = dir.toAbsolutePath();
    deleteRecursively(dir);
    Path repository = dir.resolve("live");
    Path state = dir.resolve("state");
    List<List<String>> byLayer = generate(repository, units, layers);

    System.out.printf(
        Locale.ROOT,
        "livegate local deploy benchmark: %d units in %d layers, --parallelism %d, %d cores,"
            + " %s%n",
        units,
        layers,
        parallelism,
        Runtime.getRuntime().availableProcessors(),
        terraformVersion());
    Path log = dir.resolve("deploy.log");
    int exitCode;
    long started = System.nanoTime();
    try (Writer file = Files.newBufferedWriter(log, StandardCharsets.UTF_8);
        PrintWriter out = new PrintWriter(file, true)) {
      exitCode =
          Livegate.execute(
              System.getenv(),
              out,
              out,
              "deploy",
              "--repo",
              repository.toString(),
              "--base",
              "HEAD~1",
              "--runner",
              "terraform",
              "--auto-approve",
              "--parallelism",
              Integer.toString(parallelism),
              "--port",
              "0",
              "--state-dir",
              state.toString());
    }
    Duration command = Duration.ofNanos(System.nanoTime() - started);
    if (exitCode != 0) {
      System.out.println("the deploy failed (exit " + exitCode + "); see " + log);
      System.exit(1);
    }
    try (LocalWiring wiring = new LocalWiring(state)) {
      report(wiring, command, parallelism, byLayer.size(), log);
    }
  }

  /** Writes the repository and commits it twice; answers the unit ids by layer. */
  static List<List<String>> generate(Path repository, int units, int layers) {
    List<List<String>> byLayer = new ArrayList<>();
    try (TestRepo repo = TestRepo.create(repository)) {
      repo.write(".gitignore", GITIGNORE);
      repo.commit("Empty live repository");
      for (int layer = 0; layer < layers; layer++) {
        int size = units / layers + (layer < units % layers ? 1 : 0);
        List<String> names = new ArrayList<>();
        for (int index = 0; index < size; index++) {
          String name = String.format(Locale.ROOT, "l%d-u%02d", layer, index);
          List<String> dependencies = new ArrayList<>();
          if (layer > 0) {
            List<String> previous = byLayer.get(layer - 1);
            dependencies.add(previous.get(index % previous.size()));
            String second = previous.get((index + 1) % previous.size());
            if (!dependencies.contains(second)) {
              dependencies.add(second);
            }
          }
          repo.write("stack/" + name + "/main.tf", mainTf(name, dependencies));
          repo.write("stack/" + name + "/terragrunt.hcl", terragruntHcl(dependencies));
          names.add(name);
        }
        byLayer.add(names);
      }
      repo.commit("Add " + units + " units in " + layers + " layers");
    }
    return byLayer;
  }

  private static String mainTf(String name, List<String> dependencies) {
    StringBuilder tf = new StringBuilder();
    StringBuilder input = new StringBuilder(name);
    for (String dependency : dependencies) {
      String data = dependency.replace('-', '_');
      tf.append("data \"terraform_remote_state\" \"")
          .append(data)
          .append("\" {\n  backend = \"local\"\n  config = {\n    path = \"../")
          .append(dependency)
          .append("/terraform.tfstate\"\n  }\n}\n\n");
      input.append(" after ${data.terraform_remote_state.").append(data).append(".outputs.id}");
    }
    return tf.append("resource \"terraform_data\" \"this\" {\n  input = \"")
        .append(input)
        .append("\"\n}\n\noutput \"id\" {\n  value = terraform_data.this.output\n}\n")
        .toString();
  }

  private static String terragruntHcl(List<String> dependencies) {
    StringBuilder hcl = new StringBuilder("# A unit of the deploy benchmark.\n");
    for (String dependency : dependencies) {
      hcl.append("\ndependency \"")
          .append(dependency)
          .append("\" {\n  config_path = \"../")
          .append(dependency)
          .append("\"\n}\n");
    }
    return hcl.toString();
  }

  /** One flow event of an execution. */
  private record Event(long executionId, String state, Instant at) {}

  private static void report(
      LocalWiring wiring, Duration command, int parallelism, int layers, Path log) {
    Deployment deployment =
        wiring.deployments.all().stream().max(Comparator.comparingLong(Deployment::id)).get();
    List<Execution> executions = wiring.executions.list(deployment.id());
    long succeeded =
        executions.stream().filter(e -> e.status() == ExecutionStatus.SUCCEEDED).count();
    Map<Long, Map<String, Instant>> events = new HashMap<>();
    wiring
        .metadb
        .metadb()
        .jdbi()
        .withHandle(
            handle ->
                handle
                    .createQuery(
                        "SELECT f.execution_id, f.state, f.at FROM flow_events f"
                            + " JOIN executions e ON e.id = f.execution_id"
                            + " WHERE e.deployment_id = :deployment ORDER BY f.id")
                    .bind("deployment", deployment.id())
                    .map(
                        (row, context) ->
                            new Event(
                                row.getLong(1), row.getString(2), row.getTimestamp(3).toInstant()))
                    .list())
        .forEach(
            event ->
                events
                    .computeIfAbsent(event.executionId(), id -> new HashMap<>())
                    .putIfAbsent(event.state(), event.at()));

    Map<Long, Duration> own = new HashMap<>();
    List<Duration> requests = new ArrayList<>();
    List<Duration> decides = new ArrayList<>();
    Duration work = Duration.ZERO;
    Duration flows = Duration.ZERO;
    Instant firstPlan = Instant.MAX;
    Instant lastDone = Instant.MIN;
    for (Execution execution : executions) {
      Map<String, Instant> at = events.get(execution.id());
      Duration plan = Duration.between(at.get("Plan"), at.get("RequestApproval"));
      Duration apply = Duration.between(at.get("Apply"), at.get("Succeeded"));
      own.put(execution.id(), plan.plus(apply));
      requests.add(Duration.between(at.get("RequestApproval"), at.get("Decide")));
      decides.add(Duration.between(at.get("Decide"), at.get("Apply")));
      work = work.plus(plan).plus(apply);
      flows = flows.plus(Duration.between(at.get("Plan"), at.get("Succeeded")));
      firstPlan = min(firstPlan, at.get("Plan"));
      lastDone = max(lastDone, at.get("Succeeded"));
    }
    Map<Long, Duration> longest = new HashMap<>();
    Map<Long, Long> via = new HashMap<>();
    Duration critical = Duration.ZERO;
    long end = -1;
    for (Execution execution : executions) {
      // list() sorts by layer, so every dependency's longest chain is known already.
      Duration before = Duration.ZERO;
      for (long dependency : execution.dependsOn()) {
        if (longest.get(dependency).compareTo(before) > 0) {
          before = longest.get(dependency);
          via.put(execution.id(), dependency);
        }
      }
      Duration chain = before.plus(own.get(execution.id()));
      longest.put(execution.id(), chain);
      if (chain.compareTo(critical) > 0) {
        critical = chain;
        end = execution.id();
      }
    }
    List<String> chain = new ArrayList<>();
    Map<Long, String> units = new HashMap<>();
    executions.forEach(e -> units.put(e.id(), e.unit().replace("stack/", "")));
    for (Long id = end; id != null; id = via.get(id)) {
      chain.add(0, units.get(id));
    }
    Duration deploymentWall = Duration.between(deployment.startedAt(), deployment.finishedAt());
    Duration flowWall = Duration.between(firstPlan, lastDone);
    Duration perWorker = work.dividedBy(parallelism);
    Duration bound = critical.compareTo(perWorker) >= 0 ? critical : perWorker;
    List<Duration> sorted = own.values().stream().sorted().toList();

    System.out.printf(
        Locale.ROOT,
        "deployment %d: %s, %d of %d units succeeded in %d layers (log: %s)%n",
        deployment.id(),
        deployment.status().id(),
        succeeded,
        executions.size(),
        layers,
        log);
    System.out.printf(
        Locale.ROOT,
        "unit plan+apply time:        min %s, median %s, max %s%n",
        seconds(sorted.get(0)),
        seconds(sorted.get(sorted.size() / 2)),
        seconds(sorted.get(sorted.size() - 1)));
    System.out.printf(
        Locale.ROOT,
        "command wall time:           %s  (metadb start, scan, deploy)%n",
        seconds(command));
    System.out.printf(
        Locale.ROOT,
        "deployment wall time:        %s  (deployment started to finished, in the metadb)%n",
        seconds(deploymentWall));
    System.out.printf(
        Locale.ROOT,
        "critical path:               %s  (%d units: %s)%n",
        seconds(critical),
        chain.size(),
        String.join(" > ", chain));
    System.out.printf(
        Locale.ROOT,
        "work / %d:                    %s  (sum of all units' plan+apply %s, over %d workers)%n",
        parallelism,
        seconds(perWorker),
        seconds(work),
        parallelism);
    System.out.printf(
        Locale.ROOT,
        "wall / critical path:        %.2f  (goal <= 1.15)%n",
        ratio(deploymentWall, critical));
    System.out.printf(
        Locale.ROOT,
        "wall / work/%d:               %.2f%n",
        parallelism,
        ratio(deploymentWall, perWorker));
    System.out.printf(
        Locale.ROOT,
        "wall / binding bound:        %.2f  (the %s binds)%n",
        ratio(deploymentWall, bound),
        bound == critical ? "critical path" : "work/" + parallelism + " bound");
    System.out.printf(
        Locale.ROOT,
        "livegate's share:            %s in flows outside plan+apply (median per unit: vote"
            + " request %s, decide %s), %s of the deployment outside the first plan..last apply,"
            + " %s of %d workers' time idle between flows%n",
        seconds(flows.minus(work)),
        seconds(median(requests)),
        seconds(median(decides)),
        seconds(deploymentWall.minus(flowWall)),
        seconds(flowWall.multipliedBy(parallelism).minus(flows)),
        parallelism);
  }

  private static Duration median(List<Duration> durations) {
    return durations.stream().sorted().toList().get(durations.size() / 2);
  }

  private static Instant min(Instant a, Instant b) {
    return a.isBefore(b) ? a : b;
  }

  private static Instant max(Instant a, Instant b) {
    return a.isAfter(b) ? a : b;
  }

  private static String seconds(Duration duration) {
    return String.format(Locale.ROOT, "%.2f s", duration.toNanos() / 1e9);
  }

  private static double ratio(Duration a, Duration b) {
    return (double) a.toNanos() / b.toNanos();
  }

  private static String terraformVersion() {
    try {
      Process process =
          new ProcessBuilder("terraform", "version").redirectErrorStream(true).start();
      String first =
          new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8)
              .lines()
              .filter(line -> line.startsWith("Terraform v"))
              .findFirst()
              .orElse("terraform (version unknown)");
      process.waitFor();
      return first;
    } catch (IOException e) {
      return "terraform not runnable: " + e.getMessage();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return "terraform (version unknown)";
    }
  }

  private static void deleteRecursively(Path dir) {
    if (!Files.exists(dir)) {
      return;
    }
    try (Stream<Path> paths = Files.walk(dir)) {
      for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(path);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot clear " + dir + ": " + e.getMessage(), e);
    }
  }
}
