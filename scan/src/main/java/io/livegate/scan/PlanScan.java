package io.livegate.scan;

import io.livegate.core.DaemonThreads;
import io.livegate.core.LivegateException;
import io.livegate.core.ProgressListener;
import io.livegate.core.runner.CommandResult;
import io.livegate.core.runner.Sandbox;
import io.livegate.core.stack.DeletedUnit;
import io.livegate.core.stack.DeployStack;
import io.livegate.core.stack.Reason;
import io.livegate.core.stack.ScanMode;
import io.livegate.scan.graph.Layering;
import io.livegate.scan.graph.UnitGraph;
import io.livegate.scan.repo.FileChange;
import io.livegate.scan.repo.GitRepo;
import io.livegate.scan.repo.GitSourceCache;
import io.livegate.scan.repo.RemoteSources;
import io.livegate.scan.terragrunt.DependencyDeclaration;
import io.livegate.scan.terragrunt.StackGenerator;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.PriorityQueue;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.CompletionService;
import java.util.concurrent.ExecutorCompletionService;
import java.util.concurrent.ExecutorService;

/**
 * The plan scan: the same deploy stack as {@link GraphScan}, but a unit counts as changed when its
 * plan shows changes. Each unit is planned on its own and judged by its own exit code, never by an
 * aggregate ({@code run --all} has reported wrong aggregate codes). Units are planned in dependency
 * order, {@code parallelism} at a time; a unit whose dependency is already in the stack is in it
 * anyway and is not planned.
 *
 * <p>The plans run the merged change's code before any vote, so every command runs in the {@link
 * Sandbox}, which sees a {@link ThrowawayCopy} of the repository of the unit's own and no plan
 * file: what one unit's code writes, no other unit's plan sees.
 *
 * @param tools the runner, its argv, the sandbox the repository's code runs in, and the plan
 *     processes' environment (such as TF_CLI_CONFIG_FILE)
 */
public record PlanScan(SandboxedPlan.Tools tools, ProgressListener progress) {

  private record Outcome(String unit, boolean changed, CommandResult failure) {}

  public DeployStack run(ScanCommand command) {
    RemoteSources remoteSources = new GitSourceCache(command.sources());
    try (GitRepo repo = GitRepo.open(command.repository())) {
      String head = repo.checkedOut(command.head(), "a plan scan");
      String base = command.all() ? null : repo.resolve(command.base());
      UnitGraph graph = command.readGraph(repo.tree(head), progress, remoteSources);
      Layering.layers(
          graph.units(), graph.edgesWithin(graph.units()), graph::account, command.accounts());
      SortedMap<String, Set<Reason>> changed =
          plan(
              graph,
              Path.of(repo.root()),
              command.parallelism(),
              new SandboxedPlan(tools, new StackGenerator(remoteSources, command.environment())));
      List<FileChange> files = command.all() ? List.of() : repo.changes(base, head);
      SortedMap<String, DeletedUnit> deleted =
          command.all()
              ? new TreeMap<>()
              : ChangeSet.fromFiles(
                      files,
                      command.filePattern(),
                      graph,
                      ChangeSet.baseGraph(repo, base, command, remoteSources, graph, files))
                  .deleted();
      return DeletedUnits.ordered(
          ChangeSet.deployStack(ScanMode.PLAN, base, head, graph, command, changed, deleted),
          command,
          repo,
          base,
          progress,
          remoteSources,
          ChangeSet.unchangedConfigs(graph, files));
    }
  }

  private SortedMap<String, Set<Reason>> plan(
      UnitGraph graph, Path root, int parallelism, SandboxedPlan plans) {
    Map<String, Integer> waiting = new HashMap<>();
    for (String unit : graph.units()) {
      waiting.put(
          unit,
          (int)
              graph.config(unit).dependencies().stream()
                  .map(DependencyDeclaration::target)
                  .distinct()
                  .count());
    }
    PriorityQueue<String> ready = new PriorityQueue<>();
    waiting.forEach(
        (unit, count) -> {
          if (count == 0) {
            ready.add(unit);
          }
        });
    Set<String> inStack = new TreeSet<>();
    SortedMap<String, Set<Reason>> changed = new TreeMap<>();
    SortedMap<String, String> failures = new TreeMap<>();
    ExecutorService pool = DaemonThreads.pool(parallelism, "livegate-plan");
    CompletionService<Outcome> completions = new ExecutorCompletionService<>(pool);
    int running = 0;
    String runningAccount = null;
    int finished = 0;
    int total = graph.units().size();
    try {
      while (finished < total) {
        while (true) {
          String unit = nextReady(graph, ready, running == 0 ? null : runningAccount);
          if (unit == null) {
            break;
          }
          String failedDependency = firstDependencyIn(graph, unit, failures.keySet());
          if (failedDependency != null) {
            failures.put(unit, "not planned, because " + failedDependency + " failed to plan");
            finished += settle(unit, graph, waiting, ready);
            continue;
          }
          if (firstDependencyIn(graph, unit, inStack) != null) {
            inStack.add(unit);
            finished += settle(unit, graph, waiting, ready);
            continue;
          }
          completions.submit(() -> planUnit(graph, root, unit, plans));
          running++;
          runningAccount = graph.account(unit).name();
        }
        if (running == 0) {
          break;
        }
        Outcome outcome = SandboxedPlan.nextFinished(completions);
        running--;
        if (outcome.failure() != null) {
          failures.put(outcome.unit(), SandboxedPlan.describe(outcome.failure()));
        } else if (outcome.changed()) {
          inStack.add(outcome.unit());
          changed.put(
              outcome.unit(),
              new LinkedHashSet<>(List.of(new Reason(Reason.Kind.PLAN_HAS_CHANGES, null, null))));
        }
        finished += settle(outcome.unit(), graph, waiting, ready);
        progress.progress(
            "planned "
                + outcome.unit()
                + ": "
                + (outcome.failure() != null
                    ? "failed"
                    : outcome.changed() ? "changes" : "no changes")
                + " ("
                + finished
                + "/"
                + total
                + ")");
      }
    } finally {
      pool.shutdownNow();
    }
    if (!failures.isEmpty()) {
      List<String> lines = new ArrayList<>();
      failures.forEach((unit, message) -> lines.add(unit + ": " + message.replace("\n", "\n    ")));
      throw new LivegateException(
          failures.size()
              + (failures.size() == 1 ? " unit" : " units")
              + " could not be planned:\n  "
              + String.join("\n  ", lines));
    }
    return changed;
  }

  /**
   * The first ready unit in order, taken from {@code ready}; when the sandbox lets concurrent
   * commands see each other and plans of {@code runningAccount} run, the first of that account only
   * (the others wait until those finish). Null when none may start now.
   */
  private String nextReady(UnitGraph graph, PriorityQueue<String> ready, String runningAccount) {
    if (runningAccount == null || !tools.sandbox().concurrentCommandsSeeEachOther()) {
      return ready.poll();
    }
    String next =
        ready.stream()
            .filter(unit -> graph.account(unit).name().equals(runningAccount))
            .sorted()
            .findFirst()
            .orElse(null);
    if (next != null) {
      ready.remove(next);
    }
    return next;
  }

  private static String firstDependencyIn(UnitGraph graph, String unit, Set<String> units) {
    return graph.config(unit).dependencies().stream()
        .map(DependencyDeclaration::target)
        .filter(units::contains)
        .sorted()
        .findFirst()
        .orElse(null);
  }

  /** Marks {@code unit} done and queues dependents whose dependencies are now all done. */
  private static int settle(
      String unit, UnitGraph graph, Map<String, Integer> waiting, PriorityQueue<String> ready) {
    for (String dependent : graph.dependents(unit)) {
      if (waiting.merge(dependent, -1, Integer::sum) == 0) {
        ready.add(dependent);
      }
    }
    return 1;
  }

  private Outcome planUnit(UnitGraph graph, Path root, String unit, SandboxedPlan plans) {
    String role = graph.account(unit).planRole();
    SandboxedPlan.Result result;
    // Each unit plans in a copy of its own: what its code writes, no other unit's plan sees.
    try (ThrowawayCopy copy = ThrowawayCopy.of(root)) {
      Path directory = copy.root().resolve(unit);
      result =
          plans.plan(
              new SandboxedPlan.Request(
                  copy.root(),
                  unit,
                  role,
                  tools.argv().planScanCommands(directory.toString(), graph.account(unit)),
                  directory,
                  Optional.empty(),
                  SandboxedPlan.SCAN_TIMEOUT));
    } catch (RuntimeException e) {
      return new Outcome(unit, false, new CommandResult(-1, "the runner failed: " + e, false));
    }
    return new Outcome(unit, result.changed(), result.failure());
  }
}
