package io.livegate.process;

import io.livegate.core.runner.Command;
import io.livegate.core.runner.CommandResult;
import io.livegate.core.runner.CommandRunner;
import io.livegate.core.runner.ExecutionLogs;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Optional;

/**
 * Keeps the output of each command that {@link TerraRun} runs for an execution in {@link
 * ExecutionLogs}, at the seam every command goes through. A command belongs to the execution whose
 * plan file ({@code PLANS/NAME.tfplan}) or apply PID file ({@code PLANS/NAME.apply.pid}) it names:
 * plan, show, apply and destroy do; what names neither (terraform init, a state read) is not kept,
 * and a failed init is still in the execution's failure reason. Output in JSON ({@code show -json})
 * is not kept: unlike terraform's human output, it holds sensitive values in the clear.
 */
public final class LoggedCommandRunner implements CommandRunner {
  private static final String PLAN_SUFFIX = ".tfplan";
  private static final String PID_SUFFIX = ".apply.pid";

  private final CommandRunner runner;
  private final Path plans;
  private final ExecutionLogs logs;
  private final Clock clock;

  /**
   * @param plans the directory of the plan files, as given to {@link TerraRun}
   */
  public LoggedCommandRunner(CommandRunner runner, Path plans, ExecutionLogs logs, Clock clock) {
    this.runner = runner;
    this.plans = plans.toAbsolutePath().normalize();
    this.logs = logs;
    this.clock = clock;
  }

  @Override
  public CommandResult run(Command command) {
    CommandResult result = runner.run(command);
    Optional<String> execution = executionOf(command);
    if (execution.isPresent()) {
      boolean json = command.argv().contains("-json");
      logs.append(
          execution.get(),
          program(command.argv()),
          result.exitCode(),
          json
              ? "(JSON output not kept: it holds sensitive values in the clear)\n"
              : result.output(),
          clock.instant());
    }
    return result;
  }

  private Optional<String> executionOf(Command command) {
    if (command.pidFile().isPresent()) {
      Optional<String> named = named(command.pidFile().get().toString(), PID_SUFFIX);
      if (named.isPresent()) {
        return named;
      }
    }
    for (String argument : command.argv()) {
      int at = argument.indexOf(plans.toString() + "/");
      if (at >= 0) {
        Optional<String> named = named(argument.substring(at), PLAN_SUFFIX);
        if (named.isPresent()) {
          return named;
        }
      }
    }
    return Optional.empty();
  }

  /** The execution name of a file directly in the plans directory with {@code suffix}. */
  private Optional<String> named(String path, String suffix) {
    int end = path.indexOf(suffix);
    if (end < 0 || !path.startsWith(plans.toString() + "/")) {
      return Optional.empty();
    }
    String name = path.substring(plans.toString().length() + 1, end);
    return name.isEmpty() || name.contains("/") ? Optional.empty() : Optional.of(name);
  }

  /** The command from terraform or terragrunt on: what a sandbox put before it is not news. */
  private static String program(List<String> argv) {
    for (int i = 0; i < argv.size(); i++) {
      String file = argv.get(i).substring(argv.get(i).lastIndexOf('/') + 1);
      if (file.equals("terraform") || file.equals("terragrunt")) {
        return String.join(" ", argv.subList(i, argv.size()));
      }
    }
    return String.join(" ", argv);
  }
}
