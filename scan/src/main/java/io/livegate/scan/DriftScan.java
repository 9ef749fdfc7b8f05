package io.livegate.scan;

import io.livegate.core.LivegateException;
import io.livegate.core.ProgressListener;
import io.livegate.core.account.Account;
import io.livegate.core.drift.DriftReport;
import io.livegate.core.flow.PlanJson;
import io.livegate.core.runner.Command;
import io.livegate.core.runner.CommandResult;
import io.livegate.core.runner.CommandRunner;
import io.livegate.core.runner.PrivateTemp;
import io.livegate.core.runner.RunnerArgv;
import io.livegate.core.runner.Sandbox;
import io.livegate.scan.graph.UnitGraph;
import io.livegate.scan.repo.GitRepo;
import io.livegate.scan.repo.GitSourceCache;
import io.livegate.scan.repo.RemoteSources;
import io.livegate.scan.terragrunt.StackGenerator;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.CompletionService;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorCompletionService;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.stream.Collectors;

/**
 * Drift detection: plans every unit of the checked-out trunk head with the plan role and {@code
 * -detailed-exitcode}, {@code parallelism} at a time, each on its own. Exit 2 is drift, reported
 * with the plan's resource changes; 0 is no drift; anything else, or a plan that cannot be read
 * back, is an error for that unit, never "no drift".
 *
 * <p>The plans run the trunk's code, which is as hostile as a merged change's: every command runs
 * in the {@link Sandbox}, which sees the repository and the unit's own plan file; the plan files
 * are kept in a {@link PrivateTemp} directory.
 */
public final class DriftScan {
  private static final Duration PLAN_TIMEOUT = Duration.ofMinutes(30);
  private static final int OUTPUT_TAIL_LINES = 20;

  private final CommandRunner runner;
  private final Sandbox sandbox;
  private final RunnerArgv runnerKind;
  private final Map<String, String> runnerEnvironment;
  private final ProgressListener progress;

  /**
   * @param sandbox where terraform and terragrunt run the repository's code
   */
  public DriftScan(
      CommandRunner runner,
      Sandbox sandbox,
      RunnerArgv runnerKind,
      Map<String, String> runnerEnvironment,
      ProgressListener progress) {
    this.runner = runner;
    this.sandbox = sandbox;
    this.runnerKind = runnerKind;
    this.runnerEnvironment = Map.copyOf(runnerEnvironment);
    this.progress = progress;
  }

  /** One unit's answer: changes (empty for no drift), or an error. */
  private record Outcome(String unit, List<String> changes, String error) {}

  /**
   * @param command its {@code head} must be checked out in {@code repository}; base, all and the
   *     file pattern are not used
   */
  public DriftReport run(ScanCommand command) {
    RemoteSources remoteSources = new GitSourceCache(command.sourceCache());
    try (GitRepo repo = GitRepo.open(command.repository())) {
      String head = repo.resolve(command.head());
      if (!head.equals(repo.head())) {
        throw new LivegateException(
            "drift plans the checked-out files, so "
                + repo.root()
                + " must have "
                + command.head()
                + " ("
                + head.substring(0, 12)
                + ") checked out");
      }
      UnitGraph graph =
          UnitGraph.read(
              repo.tree(head),
              command.accounts(),
              command.environment(),
              command.terragruntVersion(),
              command.parallelism(),
              progress,
              command.allowPartial(),
              remoteSources);
      return plan(
          graph,
          Path.of(repo.root()),
          head,
          command.parallelism(),
          new StackGenerator(remoteSources, command.environment()));
    }
  }

  private DriftReport plan(
      UnitGraph graph, Path root, String head, int parallelism, StackGenerator stackGenerator) {
    Path plans = PrivateTemp.directory("drift-");
    ExecutorService pool =
        Executors.newFixedThreadPool(
            parallelism,
            runnable -> {
              Thread thread = new Thread(runnable, "livegate-drift");
              thread.setDaemon(true);
              return thread;
            });
    CompletionService<Outcome> completions = new ExecutorCompletionService<>(pool);
    List<String> units = List.copyOf(graph.units());
    List<DriftReport.DriftedUnit> drifted = new ArrayList<>();
    List<DriftReport.DriftError> errors = new ArrayList<>();
    // When the sandbox lets concurrent commands see each other, one account's units at a time, so
    // that no unit's code gets the session of another account's plan role.
    Collection<List<String>> batches =
        sandbox.concurrentCommandsSeeEachOther()
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
              () -> planUnit(graph.account(unit), root, unit, planFile, stackGenerator));
        }
        for (int left = batch.size(); left > 0; left--) {
          done++;
          report(completions.take().get(), graph, drifted, errors, done, units.size());
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new LivegateException("interrupted while planning", e);
    } catch (ExecutionException e) {
      throw new LivegateException("planning failed: " + e.getCause(), e.getCause());
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

  private Outcome planUnit(
      Account account, Path root, String unit, Path planFile, StackGenerator stackGenerator) {
    try {
      stackGenerator.generate(root, unit);
    } catch (LivegateException e) {
      return new Outcome(unit, List.of(), e.getMessage());
    }
    Optional<String> refused = runnerKind.refusedRole("plan", unit, account.planRole());
    if (refused.isPresent()) {
      return new Outcome(unit, List.of(), refused.get());
    }
    Path directory = root.resolve(unit);
    try {
      // a sandbox can only hand a command a file that exists
      Files.createFile(planFile);
    } catch (IOException e) {
      return new Outcome(unit, List.of(), "cannot create its plan file: " + e.getMessage());
    }
    Sandbox.PlanFile writable = new Sandbox.PlanFile(planFile, true);
    List<List<String>> commands = runnerKind.driftPlanCommands(directory.toString(), account);
    for (int index = 0; index < commands.size(); index++) {
      List<String> argv =
          commands.get(index).stream()
              .map(argument -> argument.replace(RunnerArgv.PLAN_FILE, planFile.toString()))
              .toList();
      CommandResult result = run(argv, root, directory, writable);
      boolean last = index == commands.size() - 1;
      if (last && result.exitCode() == 0) {
        return new Outcome(unit, List.of(), null);
      }
      if (last && result.exitCode() == 2) {
        return changes(account, unit, root, directory, planFile);
      }
      if (result.exitCode() != 0) {
        return new Outcome(unit, List.of(), describe(result));
      }
    }
    throw new IllegalStateException("the runner has no plan command");
  }

  /** The saved plan's changes; a plan that shows none although it exited 2 is an error. */
  private Outcome changes(Account account, String unit, Path root, Path directory, Path planFile) {
    CommandResult show =
        run(
            runnerKind.showCommand(
                directory.toString(), account.planRole(), List.of("-json", planFile.toString())),
            root,
            directory,
            new Sandbox.PlanFile(planFile, false));
    if (show.exitCode() != 0) {
      return new Outcome(unit, List.of(), "show of the plan " + describe(show));
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

  private CommandResult run(
      List<String> argv, Path root, Path directory, Sandbox.PlanFile planFile) {
    try {
      return runner.run(
          new Command(
              sandbox.wrap(argv, root, Optional.of(planFile)),
              directory,
              runnerEnvironment,
              PLAN_TIMEOUT));
    } catch (RuntimeException e) {
      return new CommandResult(-1, "the runner failed: " + e, false);
    }
  }

  private static String describe(CommandResult failure) {
    String how = failure.timedOut() ? "timed out" : "exited with " + failure.exitCode();
    String tail = failure.tail(OUTPUT_TAIL_LINES);
    return tail.isBlank() ? how : how + "\n" + tail;
  }

  private static void deleteQuietly(Path directory) {
    try (var files = Files.walk(directory)) {
      files.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
    } catch (IOException e) {
      // Plan files of a finished run; the temp directory's owner may remove them.
    }
  }
}
