package io.livegate.scan;

import io.livegate.core.DaemonThreads;
import io.livegate.core.ProgressListener;
import io.livegate.core.account.Account;
import io.livegate.core.drift.DriftReport;
import io.livegate.core.flow.PlanJson;
import io.livegate.core.runner.CommandResult;
import io.livegate.core.runner.PrivateTemp;
import io.livegate.core.runner.Sandbox;
import io.livegate.scan.graph.UnitGraph;
import io.livegate.scan.repo.GitRepo;
import io.livegate.scan.repo.GitSourceCache;
import io.livegate.scan.repo.RemoteSources;
import io.livegate.scan.terragrunt.StackGenerator;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.CompletionService;
import java.util.concurrent.ExecutorCompletionService;
import java.util.concurrent.ExecutorService;
import java.util.stream.Collectors;

/**
 * Drift detection: plans every unit of the checked-out trunk head with the plan role and {@code
 * -detailed-exitcode}, {@code parallelism} at a time, each on its own. Exit 2 is drift, reported
 * with the plan's resource changes; 0 is no drift; anything else, or a plan that cannot be read
 * back, is an error for that unit, never "no drift".
 *
 * <p>The plans run the trunk's code, which is as hostile as a merged change's: every command runs
 * in the {@link Sandbox}, which sees a {@link ThrowawayCopy} of the repository of the unit's own
 * and the unit's own plan file; the plan files are kept in a {@link PrivateTemp} directory.
 *
 * @param tools the runner, its argv, the sandbox the repository's code runs in, and the plan
 *     processes' environment
 */
public record DriftScan(SandboxedPlan.Tools tools, ProgressListener progress) {

  /** One unit's answer: changes (empty for no drift), or an error. */
  private record Outcome(String unit, List<String> changes, String error) {}

  /**
   * @param command its {@code head} must be checked out in {@code repository}; base, all and the
   *     file pattern are not used
   */
  public DriftReport run(ScanCommand command) {
    RemoteSources remoteSources = new GitSourceCache(command.sources());
    try (GitRepo repo = GitRepo.open(command.repository())) {
      String head = repo.checkedOut(command.head(), "drift");
      UnitGraph graph = command.readGraph(repo.tree(head), progress, remoteSources);
      return plan(
          graph,
          Path.of(repo.root()),
          head,
          command.parallelism(),
          new SandboxedPlan(tools, new StackGenerator(remoteSources, command.environment())));
    }
  }

  private DriftReport plan(
      UnitGraph graph, Path root, String head, int parallelism, SandboxedPlan unitPlans) {
    Path plans = PrivateTemp.directory("drift-");
    ExecutorService pool = DaemonThreads.pool(parallelism, "livegate-drift");
    CompletionService<Outcome> completions = new ExecutorCompletionService<>(pool);
    // What terragrunt's run --all plan leaves out (exclude, skip), drift does not plan either.
    List<String> units =
        graph.units().stream().filter(unit -> !graph.excluded().containsKey(unit)).toList();
    List<DriftReport.DriftedUnit> drifted = new ArrayList<>();
    List<DriftReport.DriftError> errors = new ArrayList<>();
    // When the sandbox lets concurrent commands see each other, one account's units at a time, so
    // that no unit's code gets the session of another account's plan role.
    Collection<List<String>> batches =
        tools.sandbox().concurrentCommandsSeeEachOther()
            ? units.stream()
                .collect(
                    Collectors.groupingBy(
                        unit -> graph.account(unit).name(), TreeMap::new, Collectors.toList()))
                .values()
            : List.of(units);
    int submitted = 0;
    int done = 0;
    try {
      for (List<String> batch : batches) {
        for (String unit : batch) {
          Path planFile = plans.resolve(submitted++ + ".tfplan");
          completions.submit(
              () -> planInCopy(graph.account(unit), root, unit, planFile, unitPlans));
        }
        for (int left = batch.size(); left > 0; left--) {
          done++;
          report(
              SandboxedPlan.nextFinished(completions), graph, drifted, errors, done, units.size());
        }
      }
    } finally {
      pool.shutdownNow();
      deleteQuietly(plans);
    }
    drifted.sort(Comparator.comparing(DriftReport.DriftedUnit::unit));
    errors.sort(Comparator.comparing(DriftReport.DriftError::unit));
    return new DriftReport(head, units.size(), drifted, errors);
  }

  /** Adds one unit's outcome to the report, and says so. */
  private void report(
      Outcome outcome,
      UnitGraph graph,
      List<DriftReport.DriftedUnit> drifted,
      List<DriftReport.DriftError> errors,
      int done,
      int total) {
    String account = graph.account(outcome.unit()).name();
    if (outcome.error() != null) {
      errors.add(new DriftReport.DriftError(outcome.unit(), account, outcome.error()));
    } else if (!outcome.changes().isEmpty()) {
      drifted.add(new DriftReport.DriftedUnit(outcome.unit(), account, outcome.changes()));
    }
    progress.progress(
        "planned "
            + outcome.unit()
            + ": "
            + (outcome.error() != null
                ? "ERROR"
                : outcome.changes().isEmpty()
                    ? "no drift"
                    : "drifted (" + outcome.changes().size() + " changes)")
            + " ("
            + done
            + "/"
            + total
            + ")");
  }

  private Outcome planInCopy(
      Account account, Path root, String unit, Path planFile, SandboxedPlan plans) {
    // Each unit plans in a copy of its own: what its code writes, no other unit's plan sees.
    try (ThrowawayCopy copy = ThrowawayCopy.of(root)) {
      return planUnit(account, copy.root(), unit, planFile, plans);
    }
  }

  private Outcome planUnit(
      Account account, Path root, String unit, Path planFile, SandboxedPlan plans) {
    Path directory = root.resolve(unit);
    SandboxedPlan.Result result;
    try {
      result =
          plans.plan(
              new SandboxedPlan.Request(
                  root,
                  unit,
                  account.planRole(),
                  tools.argv().driftPlanCommands(directory.toString(), account),
                  directory,
                  Optional.of(planFile),
                  SandboxedPlan.SCAN_TIMEOUT));
    } catch (RuntimeException e) {
      return new Outcome(unit, List.of(), "the runner failed: " + e.getMessage());
    }
    if (result.failure() != null) {
      return new Outcome(unit, List.of(), SandboxedPlan.describe(result.failure()));
    }
    return result.changed()
        ? changes(account, unit, root, directory, planFile, plans)
        : new Outcome(unit, List.of(), null);
  }

  /** The saved plan's changes; a plan that shows none although it exited 2 is an error. */
  private Outcome changes(
      Account account, String unit, Path root, Path directory, Path planFile, SandboxedPlan plans) {
    CommandResult show;
    try {
      show =
          plans.run(
              tools
                  .argv()
                  .showCommand(
                      directory.toString(),
                      account.planRole(),
                      List.of("-json", planFile.toString())),
              root,
              directory,
              Optional.of(new Sandbox.PlanFile(planFile, false)),
              SandboxedPlan.SCAN_TIMEOUT);
    } catch (RuntimeException e) {
      show = new CommandResult(-1, "the runner failed: " + e, false);
    }
    if (show.exitCode() != 0) {
      return new Outcome(unit, List.of(), "show of the plan " + SandboxedPlan.describe(show));
    }
    List<String> changes;
    try {
      changes = PlanJson.changes(show.stdout());
    } catch (RuntimeException e) {
      return new Outcome(unit, List.of(), "the plan cannot be read: " + e.getMessage());
    }
    if (changes.isEmpty()) {
      // Exit 2 with no resource change: only outputs changed. Report it, never as no drift.
      return new Outcome(unit, List.of("outputs: changed"), null);
    }
    return new Outcome(unit, changes, null);
  }

  private static void deleteQuietly(Path directory) {
    try (var files = Files.walk(directory)) {
      files.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
    } catch (IOException e) {
      // Plan files of a finished run; the temp directory's owner may remove them.
    }
  }
}
