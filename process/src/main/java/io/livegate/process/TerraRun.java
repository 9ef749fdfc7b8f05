package io.livegate.process;

import io.livegate.core.LivegateException;
import io.livegate.core.deploy.Execution;
import io.livegate.core.deploy.PlanSummary;
import io.livegate.core.flow.PlanJson;
import io.livegate.core.runner.Command;
import io.livegate.core.runner.CommandResult;
import io.livegate.core.runner.CommandRunner;
import io.livegate.core.runner.RunnerArgv;
import io.livegate.core.runner.Sandbox;
import io.livegate.scan.repo.GitSourceCache;
import io.livegate.scan.terragrunt.StackGenerator;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.DigestInputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * Plans and applies one execution with terraform or terragrunt as processes: the local runtime's
 * flow and the terra-run ECS task both use it. The plan is saved in the {@code plans} directory
 * with its SHA-256; apply checks the hash against the one recorded at plan time and applies exactly
 * that file. A unit that a {@code terragrunt.stack.hcl} generates is written into the checkout
 * first ({@link StackGenerator}), from the source cache its scan filled, for both runners.
 */
public final class TerraRun {
  private static final Duration TIMEOUT = Duration.ofHours(2);
  private static final int TAIL_LINES = 30;
  private static final String OUT_PLAN_FILE = "-out=" + RunnerArgv.PLAN_FILE;

  /**
   * A saved plan.
   *
   * @param changes each changed resource with its actions ({@link PlanJson#changes})
   */
  public record Plan(
      Path file, String sha256, PlanSummary summary, String text, List<String> changes) {}

  /**
   * How an apply that livegate's death interrupted was finished.
   *
   * @param newResources the state's resources of the execution's new providers afterwards
   * @param detail what happened, for the flow's history and the log
   */
  public record Resumed(List<String> newResources, String detail) {}

  /** How a step ended: {@code error} is null on success. */
  public record Step<T>(T value, String error) {
    static <T> Step<T> failed(String error) {
      return new Step<>(null, error);
    }
  }

  private final CommandRunner runner;
  private final RunnerArgv kind;
  private final Path repositoryRoot;
  private final Path plans;
  private final Map<String, String> environment;
  private final Sandbox sandbox;
  private final StackGenerator stackGenerator;

  public TerraRun(
      CommandRunner runner,
      RunnerArgv kind,
      Path repositoryRoot,
      Path plans,
      Map<String, String> environment) {
    this(
        runner,
        kind,
        repositoryRoot,
        plans,
        environment,
        Sandbox.none("terraform runs without a sandbox"));
  }

  /**
   * @param sandbox where terraform and terragrunt run: they see the repository and the one plan
   *     file the command needs
   */
  public TerraRun(
      CommandRunner runner,
      RunnerArgv kind,
      Path repositoryRoot,
      Path plans,
      Map<String, String> environment,
      Sandbox sandbox) {
    this.runner = runner;
    this.kind = kind;
    this.repositoryRoot = repositoryRoot;
    this.plans = plans;
    this.environment = Map.copyOf(environment);
    this.sandbox = sandbox;
    this.stackGenerator =
        new StackGenerator(
            GitSourceCache.reusingFetched(GitSourceCache.defaultDirectory()), this.environment);
  }

  /**
   * The same runner, plans directory and environment, running from {@code root}: a destroy of a
   * deleted unit runs from a checkout of the base commit.
   */
  public TerraRun at(Path root) {
    return new TerraRun(runner, kind, root, plans, environment, sandbox);
  }

  public Path planFile(Execution execution) {
    return planFile(execution.name());
  }

  public Path planFile(String planName) {
    return plans.resolve(planName + ".tfplan");
  }

  public Step<Plan> plan(Execution execution) {
    return plan(
        execution.unit(),
        execution.name(),
        execution.spec().planCommands(),
        execution.spec().planRole());
  }

  /**
   * Plans {@code unit} with {@code planCommands} into the plan file of {@code planName}, then reads
   * the plan back: what a deployment's Plan and a pull request's plan both do.
   */
  public Step<Plan> plan(
      String unit, String planName, List<List<String>> planCommands, String planRole) {
    Optional<String> refused = kind.refusedRole("plan", unit, planRole);
    if (refused.isPresent()) {
      return Step.failed(refused.get());
    }
    if (unit.contains(RunnerArgv.PLAN_FILE)) {
      // the unit's path is data from the repository: it must never turn into the plan file's
      return Step.failed(
          "the unit path "
              + unit
              + " contains "
              + RunnerArgv.PLAN_FILE
              + ", which stands for the plan file in livegate's commands; rename the directory;"
              + " nothing was run");
    }
    String notGenerated = generate(unit, "nothing was run");
    if (notGenerated != null) {
      return Step.failed(notGenerated);
    }
    Path planFile = planFile(planName);
    createOwnerOnly(planFile);
    for (List<String> command : planCommands) {
      CommandResult result =
          run(withPlanFile(command, planFile), new Sandbox.PlanFile(planFile, true));
      if (result.exitCode() != 0) {
        return Step.failed(failure("plan", result));
      }
    }
    Sandbox.PlanFile readable = new Sandbox.PlanFile(planFile, false);
    CommandResult json =
        run(kind.showCommand(unit, planRole, List.of("-json", planFile.toString())), readable);
    CommandResult text =
        run(kind.showCommand(unit, planRole, List.of("-no-color", planFile.toString())), readable);
    if (json.exitCode() != 0 || text.exitCode() != 0) {
      return Step.failed(failure("show", json.exitCode() != 0 ? json : text));
    }
    return new Step<>(
        new Plan(
            planFile,
            sha256(planFile),
            PlanJson.summary(json.stdout()),
            text.stdout(),
            PlanJson.changes(json.stdout())),
        null);
  }

  /**
   * Applies the saved plan if its hash is the one recorded at plan time and its changes are the
   * ones the voters were shown (the summary recorded with the hash). Whether the votes approve it
   * is the caller's check ({@link io.livegate.core.vote.ApplyGate}).
   *
   * @return the full addresses of the resources of {@code newProviders} in the state afterwards
   */
  public Step<List<String>> apply(Execution execution, Set<String> newProviders) {
    Optional<String> refused =
        kind.refusedRole("apply", execution.unit(), execution.spec().applyRole());
    if (refused.isPresent()) {
      return Step.failed(refused.get());
    }
    String notGenerated = generate(execution.unit(), "nothing was applied");
    if (notGenerated != null) {
      return Step.failed(notGenerated);
    }
    Path planFile = planFile(execution);
    if (!Files.isRegularFile(planFile) || !sha256(planFile).equals(execution.planSha256())) {
      return Step.failed(
          "the saved plan "
              + planFile
              + " is missing or differs from the approved one"
              + " (SHA-256 "
              + execution.planSha256()
              + "); nothing was applied");
    }
    CommandResult json =
        run(
            kind.showCommand(
                execution.unit(),
                execution.spec().applyRole(),
                List.of("-json", planFile.toString())),
            new Sandbox.PlanFile(planFile, false));
    if (json.exitCode() != 0) {
      return Step.failed(failure("show", json));
    }
    PlanSummary changes = PlanJson.summary(json.stdout());
    if (!changes.equals(execution.planSummary())) {
      return Step.failed(
          "the saved plan's changes ("
              + changes.counts()
              + ") are not the ones the voters were shown ("
              + (execution.planSummary() == null ? "none" : execution.planSummary().counts())
              + "); nothing was applied");
    }
    String error = applyPlanFile(execution, planFile);
    return error == null
        ? new Step<>(newResources(execution, newProviders), null)
        : Step.failed(error);
  }

  /**
   * Waits for an apply of {@code execution} that outlived the livegate run that started it: its PID
   * file is still there and names a live process.
   *
   * @return whether there was one to wait for
   */
  public boolean awaitOrphanedApply(Execution execution, Consumer<String> log) {
    Path pidFile = applyPidFile(execution);
    Optional<ProcessHandle> orphan;
    try {
      orphan =
          Files.exists(pidFile)
              ? ProcessHandle.of(Long.parseLong(Files.readString(pidFile).strip()))
              : Optional.empty();
    } catch (IOException | NumberFormatException e) {
      orphan = Optional.empty();
    }
    Optional<ProcessHandle> alive = orphan.filter(ProcessHandle::isAlive);
    alive.ifPresent(
        process -> {
          log.accept(
              "waiting for the apply that outlived the interrupted run (pid "
                  + process.pid()
                  + ")");
          try {
            process.onExit().get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new LivegateException("interrupted while waiting for pid " + process.pid(), e);
          } catch (ExecutionException | TimeoutException e) {
            throw new LivegateException(
                "the apply that outlived the interrupted run (pid "
                    + process.pid()
                    + ") did not end within "
                    + TIMEOUT,
                e);
          }
        });
    try {
      Files.deleteIfExists(pidFile);
    } catch (IOException e) {
      throw new LivegateException("cannot remove " + pidFile + ": " + e.getMessage(), e);
    }
    return alive.isPresent();
  }

  /**
   * Finishes an apply that livegate's death (or its task's) interrupted: the unit is planned again
   * at the same commit with the apply role, the role of the step being finished (on AWS the apply
   * task may assume no other). No changes left: the interrupted apply had finished. Changes left
   * that the voters approved (the same addresses with the same actions, nothing new): they are
   * applied without a new vote. Anything else fails, and nothing more is applied.
   */
  public Step<Resumed> finishInterruptedApply(Execution execution, Set<String> newProviders) {
    Path approvedFile = planFile(execution);
    if (!Files.isRegularFile(approvedFile)
        || !sha256(approvedFile).equals(execution.planSha256())) {
      return Step.failed(
          "the approved plan " + approvedFile + " is missing or changed; nothing was applied");
    }
    String notGenerated = generate(execution.unit(), "nothing was applied");
    if (notGenerated != null) {
      return Step.failed(notGenerated);
    }
    String applyRole = execution.spec().applyRole();
    CommandResult approvedJson =
        run(
            kind.showCommand(
                execution.unit(), applyRole, List.of("-json", approvedFile.toString())),
            new Sandbox.PlanFile(approvedFile, false));
    if (approvedJson.exitCode() != 0) {
      return Step.failed(failure("show", approvedJson));
    }
    List<String> approved = PlanJson.changes(approvedJson.stdout());
    List<String> released = new ArrayList<>();
    Step<Plan> replanned =
        releasingTheLockItLeft(
            execution,
            released,
            () ->
                plan(
                    execution.unit(),
                    execution.name() + "-resumed",
                    kind.planCommands(
                        execution.unit(), applyRole, execution.spec().destroyTargets()),
                    applyRole));
    if (replanned.error() != null) {
      return Step.failed(replanned.error());
    }
    Plan left = replanned.value();
    if (left.changes().isEmpty()) {
      return new Step<>(
          new Resumed(
              newResources(execution, newProviders),
              "the interrupted apply had finished; not applied again" + String.join("", released)),
          null);
    }
    List<String> unapproved =
        left.changes().stream().filter(change -> !approved.contains(change)).toList();
    if (!unapproved.isEmpty()) {
      return Step.failed(
          "the interrupted apply left changes the voters did not approve ("
              + String.join("; ", unapproved)
              + "); nothing more was applied");
    }
    if (!sha256(left.file()).equals(left.sha256())) {
      return Step.failed("the plan of what was left changed on disk; nothing was applied");
    }
    Step<Path> applied =
        releasingTheLockItLeft(
            execution,
            released,
            () -> {
              String error = applyPlanFile(execution, left.file());
              return error == null ? new Step<>(left.file(), null) : Step.failed(error);
            });
    if (applied.error() != null) {
      return Step.failed(applied.error());
    }
    return new Step<>(
        new Resumed(
            newResources(execution, newProviders),
            "completed an interrupted apply ("
                + String.join("; ", left.changes())
                + ")"
                + String.join("", released)),
        null);
  }

  /**
   * Runs {@code step} of finishing an interrupted apply. When the state lock refuses it and the
   * lock is the one the interrupted apply took (its start was recorded before it ran), that lock is
   * released with {@code force-unlock} and the step runs once more; {@code released} gets a note
   * saying so. A lock that anything else holds is never broken: the step fails naming its holder.
   */
  private <T> Step<T> releasingTheLockItLeft(
      Execution execution, List<String> released, Supplier<Step<T>> step) {
    Step<T> first = step.get();
    Optional<StateLock> lock =
        first.error() == null ? Optional.empty() : StateLock.holder(first.error());
    if (lock.isEmpty()) {
      return first;
    }
    StateLock held = lock.get();
    if (!StateLock.ApplyStart.read(applyStartFile(execution)).map(held::leftBy).orElse(false)) {
      return Step.failed(
          "the state of "
              + execution.unit()
              + " is locked by "
              + held.who()
              + " ("
              + held.operation()
              + " since "
              + held.created()
              + ", lock "
              + held.id()
              + "), which is not the interrupted apply; livegate never breaks a lock it did not"
              + " leave: once that run is gone, release it with force-unlock "
              + held.id()
              + " and resume");
    }
    CommandResult unlocked =
        run(kind.forceUnlockCommand(execution.unit(), execution.spec().applyRole(), held.id()));
    if (unlocked.exitCode() != 0) {
      return Step.failed(failure("force-unlock", unlocked));
    }
    released.add("; released the state lock " + held.id() + " that the interrupted apply left");
    return step.get();
  }

  /**
   * Writes {@code unit} into the checkout when a stack generates it: plan and apply may run in
   * different checkouts (ECS tasks), and a checkout of a commit never holds generated units.
   *
   * @return why it could not be written, ending in {@code consequence}; null when it was, or when
   *     no stack generates the unit
   */
  private String generate(String unit, String consequence) {
    try {
      stackGenerator.generate(repositoryRoot, unit);
      return null;
    } catch (LivegateException e) {
      return e.getMessage() + "; " + consequence;
    }
  }

  /** Where an apply's PID is kept while it runs. */
  public Path applyPidFile(Execution execution) {
    return plans.resolve(execution.name() + ".apply.pid");
  }

  /** Where the start of an apply is recorded before it runs ({@link StateLock.ApplyStart}). */
  private Path applyStartFile(Execution execution) {
    return plans.resolve(execution.name() + ".apply.start");
  }

  private String applyPlanFile(Execution execution, Path planFile) {
    try {
      StateLock.ApplyStart.now().write(applyStartFile(execution));
    } catch (IOException e) {
      return "cannot record the start of the apply in "
          + applyStartFile(execution)
          + ": "
          + e.getMessage()
          + "; nothing was applied";
    }
    for (List<String> command : execution.spec().applyCommands()) {
      CommandResult result =
          runner.run(
              new Command(
                  sandbox.wrap(
                      withPlanFile(command, planFile),
                      repositoryRoot,
                      Optional.of(new Sandbox.PlanFile(planFile, false))),
                  repositoryRoot,
                  environment,
                  TIMEOUT,
                  Optional.of(applyPidFile(execution))));
      if (result.exitCode() != 0) {
        return failure("apply", result);
      }
    }
    return null;
  }

  /**
   * The state's resources of {@code providers}, by full address. It runs right after an apply, in
   * the apply task, so it reads the state with the apply role: on AWS that task may assume no plan
   * role.
   */
  public List<String> newResources(Execution execution, Set<String> providers) {
    if (providers.isEmpty()) {
      return List.of();
    }
    CommandResult state =
        run(kind.showCommand(execution.unit(), execution.spec().applyRole(), List.of("-json")));
    if (state.exitCode() != 0) {
      throw new LivegateException(
          "cannot read the state of " + execution.unit() + ": " + state.tail(TAIL_LINES));
    }
    return PlanJson.resourcesOf(state.stdout(), providers);
  }

  private CommandResult run(List<String> argv) {
    return runner.run(
        new Command(
            sandbox.wrap(argv, repositoryRoot, Optional.empty()),
            repositoryRoot,
            environment,
            TIMEOUT));
  }

  private CommandResult run(List<String> argv, Sandbox.PlanFile planFile) {
    return runner.run(
        new Command(
            sandbox.wrap(argv, repositoryRoot, Optional.of(planFile)),
            repositoryRoot,
            environment,
            TIMEOUT));
  }

  /**
   * A fresh, empty plan file that only its owner can read: a sandbox can only hand a command a file
   * that exists, and a plan holds the values of every variable.
   */
  private static void createOwnerOnly(Path planFile) {
    try {
      Files.createDirectories(planFile.getParent());
      Files.deleteIfExists(planFile);
      Files.createFile(
          planFile,
          PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
    } catch (IOException e) {
      throw new LivegateException("cannot create " + planFile + ": " + e.getMessage(), e);
    }
  }

  private static List<String> withPlanFile(List<String> command, Path planFile) {
    return command.stream()
        .map(
            argument ->
                argument.equals(RunnerArgv.PLAN_FILE)
                    ? planFile.toString()
                    : argument.equals(OUT_PLAN_FILE) ? "-out=" + planFile : argument)
        .toList();
  }

  private static String failure(String step, CommandResult result) {
    return step
        + (result.timedOut() ? " timed out" : " exited with " + result.exitCode())
        + (result.output().isBlank() ? "" : ":\n" + result.tail(TAIL_LINES));
  }

  public static String sha256(Path file) {
    try (DigestInputStream digest =
        new DigestInputStream(Files.newInputStream(file), MessageDigest.getInstance("SHA-256"))) {
      digest.transferTo(java.io.OutputStream.nullOutputStream());
      return HexFormat.of().formatHex(digest.getMessageDigest().digest());
    } catch (IOException | NoSuchAlgorithmException e) {
      throw new LivegateException("cannot hash " + file + ": " + e.getMessage(), e);
    }
  }
}
