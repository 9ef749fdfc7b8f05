package io.livegate.process;

import io.livegate.core.LivegateException;
import io.livegate.core.deploy.Execution;
import io.livegate.core.deploy.PlanSummary;
import io.livegate.core.flow.ApprovedContinuation;
import io.livegate.core.flow.PlanJson;
import io.livegate.core.flow.ReportedComplete;
import io.livegate.core.runner.Command;
import io.livegate.core.runner.CommandResult;
import io.livegate.core.runner.ResourceShortage;
import io.livegate.core.runner.Sandbox;
import io.livegate.core.unit.UnitRunner;
import io.livegate.scan.SandboxedPlan;
import io.livegate.scan.repo.GitSourceCache;
import io.livegate.scan.repo.SourceAccess;
import io.livegate.scan.terragrunt.StackGenerator;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.DigestInputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import java.util.function.Supplier;
import java.util.regex.Pattern;

/**
 * Plans and applies one execution with terraform or terragrunt as processes: the local runtime's
 * flow and the terra-run ECS task both use it. The plan is saved in the {@code plans} directory
 * with its SHA-256; apply checks the hash against the one recorded at plan time and applies exactly
 * that file. A unit that a {@code terragrunt.stack.hcl} generates is written into the checkout
 * first ({@link StackGenerator}), from the source cache its scan filled, for both runners.
 */
public final class TerraRun implements UnitRunner {
  private static final Duration TIMEOUT = Duration.ofHours(2);
  private static final int TAIL_LINES = 30;

  /** Less free space than this is a full file system: no plan file or state fits. */
  private static final long FULL_BELOW_BYTES = 1024 * 1024;

  /** How terraform (and terragrunt passing it on) starts each error it reports on stderr. */
  private static final Pattern TERRAFORM_ERROR = Pattern.compile("(?m)^(.*\\s)?Error: ");

  /** What terraform prints on stdout when a SIGINT stops it (livegate's drain sends one). */
  private static final String TERRAFORM_INTERRUPTED = "Interrupt received.";

  private final SandboxedPlan.Tools tools;
  private final Path repositoryRoot;
  private final Path plans;
  private final SourceAccess sources;
  private final SandboxedPlan sandboxedPlan;

  /** Whether {@link #initialise} ran in this workspace. */
  private boolean initialised;

  /**
   * @param tools the runner, its argv, the sandbox terraform and terragrunt run in (it shows them
   *     the repository and the one plan file the command needs), and their environment
   * @param repositoryRoot the workspace the commands run from
   * @param plans where plan files are while a command runs, with the PID and start of an apply
   * @param sources the remote stack sources' cache that the scan fetched into, and what a fetch of
   *     a source it does not hold may reach
   */
  public TerraRun(
      SandboxedPlan.Tools tools, Path repositoryRoot, Path plans, SourceAccess sources) {
    this.tools = tools;
    this.repositoryRoot = repositoryRoot;
    this.plans = plans;
    this.sources = sources;
    this.sandboxedPlan =
        new SandboxedPlan(
            tools, new StackGenerator(GitSourceCache.reusingFetched(sources), tools.environment()));
  }

  /** The same runner, plans directory and environment, running from the workspace {@code root}. */
  @Override
  public TerraRun at(Path root) {
    return new TerraRun(tools, root, plans, sources);
  }

  @Override
  public Path planFile(Execution execution) {
    return planFile(execution.name());
  }

  private Path planFile(String planName) {
    return plans.resolve(planName + ".tfplan");
  }

  @Override
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
    Path planFile = planFile(planName);
    SandboxedPlan.Result planned =
        sandboxedPlan.plan(
            new SandboxedPlan.Request(
                repositoryRoot,
                unit,
                planRole,
                planCommands,
                repositoryRoot,
                Optional.of(planFile),
                TIMEOUT));
    if (planned.failure() != null) {
      CommandResult failure = planned.failure();
      return Step.failed(failure.exitCode() < 0 ? failure.output() : failure("plan", failure));
    }
    String unwritten = unwrittenPlanFile(planFile);
    if (unwritten != null) {
      return Step.failed(unwritten);
    }
    Sandbox.PlanFile readable = new Sandbox.PlanFile(planFile, false);
    CommandResult json =
        run(
            tools.argv().showCommand(unit, planRole, List.of("-json", planFile.toString())),
            readable);
    CommandResult text =
        run(
            tools.argv().showCommand(unit, planRole, List.of("-no-color", planFile.toString())),
            readable);
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
  @Override
  public Step<List<String>> apply(Execution execution, Set<String> newProviders) {
    Optional<String> refused =
        tools.argv().refusedRole("apply", execution.unit(), execution.spec().applyRole());
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
    String notReady = initialise(execution, execution.spec().applyRole());
    if (notReady != null) {
      return Step.failed(notReady + "; nothing was applied");
    }
    CommandResult json =
        run(
            tools
                .argv()
                .showCommand(
                    execution.unit(),
                    execution.spec().applyRole(),
                    List.of("-json", planFile.toString())),
            new Sandbox.PlanFile(planFile, false));
    if (json.exitCode() != 0) {
      return Step.failed(failure("show", json));
    }
    PlanSummary changes = PlanJson.summary(json.stdout());
    if (execution.planSummary() != null && execution.planSummary().changedResources() == 0) {
      // recorded before summaries listed the changed resources (or a plan that changes none)
      changes =
          new PlanSummary(
              changes.add(),
              changes.change(),
              changes.destroy(),
              changes.newProviders(),
              changes.destroyed());
    }
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
  @Override
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
   * that the voters approved, or the rest of one as terraform continues it (a replace whose delete
   * is done continues with its create; {@link ApprovedContinuation}): they are applied without a
   * new vote. Anything else fails, and nothing more is applied. An apply that terraform reported
   * failed before the run died fails with terraform's error, and nothing is applied again; so does
   * a change left that the interrupted apply's output reports made ({@link ReportedComplete}):
   * terraform made it but could not save the state (a full disk), and applying it again would make
   * it twice.
   */
  @Override
  public Step<Resumed> finishInterruptedApply(Execution execution, Set<String> newProviders) {
    Optional<String> failed = failureOfTheInterruptedApply(execution);
    if (failed.isPresent()) {
      return Step.failed(
          "the interrupted apply had failed before its failure was recorded, and is not applied"
              + " again:\n"
              + failed.get());
    }
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
    String notReady = initialise(execution, applyRole);
    if (notReady != null) {
      return Step.failed(notReady + "; nothing was applied");
    }
    CommandResult approvedJson =
        run(
            tools
                .argv()
                .showCommand(
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
                    tools
                        .argv()
                        .planCommands(
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
    List<String> madeAlready =
        ReportedComplete.among(outputOfTheInterruptedApply(execution), left.changes());
    if (!madeAlready.isEmpty()) {
      return Step.failed(
          "terraform reported changes complete that its state does not hold ("
              + String.join("; ", madeAlready)
              + "): the interrupted apply made them but its state was not saved, and they are not"
              + " applied again, which would make them twice. Restore the state of "
              + execution.unit()
              + " (terraform's errored.tfstate in its directory or the state printed in "
              + ProcessCommandRunner.keptOutput(applyPidFile(execution))
                  .resolve(ProcessCommandRunner.STDERR)
              + ", where whole, with terraform state push; else terraform import), then deploy"
              + " again");
    }
    List<String> unapproved = ApprovedContinuation.unapproved(approved, left.changes());
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
   * What terraform reported when the interrupted apply failed, from the output it wrote itself
   * ({@link ProcessCommandRunner#keptOutput}): a run killed after terraform's failure (or while
   * terraform, outliving it, went on to fail) must record that failure, not apply again what
   * failed. Empty when the apply left no output, reported no error, or was stopped by livegate's
   * own shutdown (terraform's "Interrupt received."), which is never the unit's failure.
   */
  private Optional<String> failureOfTheInterruptedApply(Execution execution) {
    Path output = ProcessCommandRunner.keptOutput(applyPidFile(execution));
    Path stderr = output.resolve(ProcessCommandRunner.STDERR);
    Path stdout = output.resolve(ProcessCommandRunner.STDOUT);
    try {
      if (!Files.exists(stderr)) {
        return Optional.empty();
      }
      String errors = Files.readString(stderr);
      boolean interrupted =
          Files.exists(stdout) && Files.readString(stdout).contains(TERRAFORM_INTERRUPTED);
      if (interrupted
          || ResourceShortage.in(errors).isPresent()
          || !TERRAFORM_ERROR.matcher(errors).find()) {
        return Optional.empty();
      }
      return Optional.of(new CommandResult(1, errors, false).tail(TAIL_LINES));
    } catch (IOException e) {
      throw new LivegateException(
          "cannot read the output of the interrupted apply in " + output + ": " + e.getMessage(),
          e);
    }
  }

  /** What the interrupted apply printed on stdout, where terraform reports each change made. */
  private String outputOfTheInterruptedApply(Execution execution) {
    Path stdout =
        ProcessCommandRunner.keptOutput(applyPidFile(execution))
            .resolve(ProcessCommandRunner.STDOUT);
    try {
      // Leniently: a full disk may have cut the file in the middle of a character.
      return Files.exists(stdout)
          ? new String(Files.readAllBytes(stdout), StandardCharsets.UTF_8)
          : "";
    } catch (IOException e) {
      throw new LivegateException(
          "cannot read the output of the interrupted apply in " + stdout + ": " + e.getMessage(),
          e);
    }
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
        run(
            tools
                .argv()
                .forceUnlockCommand(execution.unit(), execution.spec().applyRole(), held.id()));
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
    String notGenerated = sandboxedPlan.generate(repositoryRoot, unit);
    return notGenerated == null ? null : notGenerated + "; " + consequence;
  }

  /** Where an apply's PID is kept while it runs. */
  public Path applyPidFile(Execution execution) {
    return applyPidFile(plans, execution);
  }

  /** Where the apply of {@code execution} keeps its PID in the plan directory {@code plans}. */
  public static Path applyPidFile(Path plans, Execution execution) {
    return plans.resolve(execution.name() + ".apply.pid");
  }

  /** Where the start of an apply is recorded before it runs ({@link StateLock.ApplyStart}). */
  private Path applyStartFile(Execution execution) {
    return plans.resolve(execution.name() + ".apply.start");
  }

  private String applyPlanFile(Execution execution, Path planFile) {
    // An earlier attempt's output must not stand for this one's if this run dies before it starts.
    Path earlier = ProcessCommandRunner.keptOutput(applyPidFile(execution));
    try {
      Files.deleteIfExists(earlier.resolve(ProcessCommandRunner.STDOUT));
      Files.deleteIfExists(earlier.resolve(ProcessCommandRunner.STDERR));
    } catch (IOException e) {
      return "cannot remove an earlier apply's output in "
          + earlier
          + ": "
          + e.getMessage()
          + "; nothing was applied";
    }
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
          tools
              .runner()
              .run(
                  new Command(
                      tools
                          .sandbox()
                          .wrap(
                              SandboxedPlan.withPlanFile(command, Optional.of(planFile)),
                              repositoryRoot,
                              Optional.of(new Sandbox.PlanFile(planFile, false))),
                      repositoryRoot,
                      tools.environment(),
                      TIMEOUT,
                      Optional.of(applyPidFile(execution)),
                      tools.sandbox().standardInput()));
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
  @Override
  public List<String> newResources(Execution execution, Set<String> providers) {
    if (providers.isEmpty()) {
      return List.of();
    }
    String notReady = initialise(execution, execution.spec().applyRole());
    if (notReady != null) {
      throw new LivegateException("cannot read the state of " + execution.unit() + ": " + notReady);
    }
    CommandResult state =
        run(
            tools
                .argv()
                .showCommand(execution.unit(), execution.spec().applyRole(), List.of("-json")));
    if (state.exitCode() != 0) {
      throw new LivegateException(
          "cannot read the state of " + execution.unit() + ": " + state.tail(TAIL_LINES));
    }
    return PlanJson.resourcesOf(state.stdout(), providers);
  }

  /**
   * Readies the unit's directory in this workspace for show and apply, once: its plan ran in a
   * workspace of its own ({@link RunnerArgv#initCommands}).
   *
   * @return why it could not; null when it is ready
   */
  private String initialise(Execution execution, String role) {
    synchronized (this) {
      if (initialised) {
        return null;
      }
      for (List<String> command : tools.argv().initCommands(execution.unit(), role)) {
        CommandResult result = run(command);
        if (result.exitCode() != 0) {
          return failure("init", result);
        }
      }
      initialised = true;
      return null;
    }
  }

  private CommandResult run(List<String> argv) {
    return sandboxedPlan.run(argv, repositoryRoot, repositoryRoot, Optional.empty(), TIMEOUT);
  }

  private CommandResult run(List<String> argv, Sandbox.PlanFile planFile) {
    return sandboxedPlan.run(argv, repositoryRoot, repositoryRoot, Optional.of(planFile), TIMEOUT);
  }

  private String failure(String step, CommandResult result) {
    return step
        + (result.timedOut() ? " timed out" : " exited with " + result.exitCode())
        + (result.output().isBlank() ? "" : ":\n" + result.tail(TAIL_LINES))
        + fullFileSystem();
  }

  /**
   * Why a plan that terraform reported saved left its plan file empty, or null when it did not.
   * livegate hands terraform an empty file to write the plan into, and terraform (1.11) exits 0
   * when that write fails, with the file as empty as it was: on a full disk, "Saved the plan to"
   * and nothing saved. It says so whatever the space is now: the disk may have been freed since
   * (the metadb's checkpoint recycling its log, another command's files), and the failure is then
   * the machine's, to resume after, not the unit's ({@code CrashSuiteTest}'s full disk under load).
   */
  private String unwrittenPlanFile(Path planFile) {
    try {
      if (Files.size(planFile) > 0) {
        return null;
      }
    } catch (IOException e) {
      return "cannot read the plan file " + planFile + " terraform wrote: " + e.getMessage();
    }
    String full = fullFileSystem();
    return "plan exited with 0 but wrote nothing into "
        + planFile
        + " (terraform does not report a failed write of its plan file)"
        + (full.isEmpty()
            ? "\nNo space left on device, most likely: the file system of "
                + plans
                + " refused the write and has space again now"
            : full);
  }

  /**
   * A line saying that the file system of the plans or of the workspace is full, when it is: a
   * command may fail of it without saying so (terraform left a truncated plan file on a full disk,
   * and {@code show} failed with "zip: not a valid zip file"), and the failure is then the
   * machine's ({@link ResourceShortage}), not the unit's. Empty when neither is full.
   */
  private String fullFileSystem() {
    for (Path path : List.of(plans, repositoryRoot)) {
      try {
        Path existing = path.toAbsolutePath();
        while (!Files.exists(existing) && existing.getParent() != null) {
          existing = existing.getParent();
        }
        long free = Files.getFileStore(existing).getUsableSpace();
        if (free < FULL_BELOW_BYTES) {
          return "\nNo space left on device: the file system of "
              + path
              + " has "
              + free
              + " bytes free";
        }
      } catch (IOException e) {
        // A file system that cannot be asked is not known to be full: the failure stands as it is.
      }
    }
    return "";
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
