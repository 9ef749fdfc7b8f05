package io.livegate.scan;

import io.livegate.core.LivegateException;
import io.livegate.core.runner.Command;
import io.livegate.core.runner.CommandResult;
import io.livegate.core.runner.CommandRunner;
import io.livegate.core.runner.RunnerArgv;
import io.livegate.core.runner.Sandbox;
import io.livegate.scan.terragrunt.StackGenerator;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletionService;
import java.util.concurrent.ExecutionException;

/**
 * The one way a unit is planned, for a deployment's Plan, a pull request's plan, the plan scan and
 * drift: the unit is generated into the checkout when a stack makes it, its role is checked against
 * the runner, and each command runs in the {@link Sandbox}, judged by its exit code ({@code
 * -detailed-exitcode}: 2 means changes). The commands run the repository's code, which is hostile
 * until voted.
 */
public final class SandboxedPlan {
  private static final int OUTPUT_TAIL_LINES = 20;

  /** How long one command of a scan's plan (the plan scan's, drift's) may run. */
  static final Duration SCAN_TIMEOUT = Duration.ofMinutes(30);

  /** What the commands of a unit run with. */
  public record Tools(
      CommandRunner runner, RunnerArgv argv, Sandbox sandbox, Map<String, String> environment) {
    public Tools {
      environment = Map.copyOf(environment);
    }
  }

  /**
   * One unit's plan.
   *
   * @param root the checkout the sandbox shows
   * @param directory where the commands run from (the root, or the unit's directory)
   * @param planFile where the plan is saved, for commands that say {@link RunnerArgv#PLAN_FILE}
   */
  public record Request(
      Path root,
      String unit,
      String role,
      List<List<String>> commands,
      Path directory,
      Optional<Path> planFile,
      Duration timeout) {}

  /**
   * How the plan ended: {@code failure} is null when every command succeeded, and then {@code
   * changed} says whether the last exited 2. A failure that ran no command has exit code -1 and
   * says why.
   */
  public record Result(boolean changed, CommandResult failure) {
    static Result failed(String why) {
      return new Result(false, new CommandResult(-1, why, false));
    }
  }

  private final Tools tools;
  private final StackGenerator stacks;

  /**
   * @param stacks writes the units that a {@code terragrunt.stack.hcl} generates
   */
  public SandboxedPlan(Tools tools, StackGenerator stacks) {
    this.tools = tools;
    this.stacks = stacks;
  }

  /**
   * The next of a scan's plans to finish: an interrupt, or an exception a plan let through (each
   * plan answers its own failures as values), ends the scan.
   */
  static <T> T nextFinished(CompletionService<T> completions) {
    try {
      return completions.take().get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new LivegateException("interrupted while planning", e);
    } catch (ExecutionException e) {
      throw new LivegateException("planning failed: " + e.getCause(), e.getCause());
    }
  }

  public Tools tools() {
    return tools;
  }

  public Result plan(Request request) {
    String unit = request.unit();
    if (unit.contains(RunnerArgv.PLAN_FILE)) {
      // the unit's path is data from the repository: it must never turn into the plan file's
      return Result.failed(
          "the unit path "
              + unit
              + " contains "
              + RunnerArgv.PLAN_FILE
              + ", which stands for the plan file in livegate's commands; rename the directory;"
              + " nothing was run");
    }
    String notGenerated = generate(request.root(), unit);
    if (notGenerated != null) {
      return Result.failed(notGenerated + "; nothing was run");
    }
    Optional<String> refused = tools.argv().refusedRole("plan", unit, request.role());
    if (refused.isPresent()) {
      return Result.failed(refused.get());
    }
    request.planFile().ifPresent(SandboxedPlan::createOwnerOnly);
    Optional<Sandbox.PlanFile> writable =
        request.planFile().map(file -> new Sandbox.PlanFile(file, true));
    List<List<String>> commands = request.commands();
    for (int index = 0; index < commands.size(); index++) {
      List<String> argv = withPlanFile(commands.get(index), request.planFile());
      CommandResult result =
          run(argv, request.root(), request.directory(), writable, request.timeout());
      boolean last = index == commands.size() - 1;
      if (last && (result.exitCode() == 0 || result.exitCode() == 2)) {
        return new Result(result.exitCode() == 2, null);
      }
      if (result.exitCode() != 0) {
        return new Result(false, result);
      }
    }
    throw new IllegalStateException("the runner has no plan command for " + unit);
  }

  /**
   * Writes {@code unit} into the checkout at {@code root} when a stack generates it: a checkout of
   * a commit never holds generated units.
   *
   * @return why it could not be written; null when it was, or when no stack generates the unit
   */
  public String generate(Path root, String unit) {
    try {
      stacks.generate(root, unit);
      return null;
    } catch (LivegateException e) {
      return e.getMessage();
    }
  }

  /** Runs one command of a unit in the sandbox, which shows it {@code root} and the plan file. */
  public CommandResult run(
      List<String> argv,
      Path root,
      Path directory,
      Optional<Sandbox.PlanFile> planFile,
      Duration timeout) {
    return tools
        .runner()
        .run(
            new Command(
                tools.sandbox().wrap(argv, root, planFile),
                directory,
                tools.environment(),
                timeout,
                Optional.empty(),
                tools.sandbox().standardInput()));
  }

  /** What went wrong; a failure that ran no command (exit code -1) is its message alone. */
  public static String describe(CommandResult failure) {
    String tail = failure.tail(OUTPUT_TAIL_LINES);
    if (failure.exitCode() < 0 && !failure.timedOut() && !tail.isBlank()) {
      return tail;
    }
    String how = failure.timedOut() ? "timed out" : "exited with " + failure.exitCode();
    return tail.isBlank() ? how : how + "\n" + tail;
  }

  /** {@code command} with {@link RunnerArgv#PLAN_FILE} standing for {@code planFile}. */
  public static List<String> withPlanFile(List<String> command, Optional<Path> planFile) {
    if (planFile.isEmpty()) {
      return command;
    }
    String path = planFile.get().toString();
    return command.stream()
        .map(
            argument ->
                argument.equals(RunnerArgv.PLAN_FILE)
                    ? path
                    : argument.equals("-out=" + RunnerArgv.PLAN_FILE) ? "-out=" + path : argument)
        .toList();
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
}
