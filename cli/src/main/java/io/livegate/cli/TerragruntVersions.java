package io.livegate.cli;

import io.livegate.core.LivegateException;
import io.livegate.core.runner.Command;
import io.livegate.core.runner.CommandResult;
import io.livegate.core.runner.CommandRunner;
import io.livegate.core.runner.RunnerArgv;
import io.livegate.scan.terragrunt.TerragruntVersion;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * Which terragrunt release a local scan applies the rules of: the one given with {@code
 * --terragrunt-version}, else what the {@code terragrunt} on PATH says it is, else {@link
 * TerragruntVersion#DEFAULT} (the release livegate's runner image installs), said on stderr.
 */
final class TerragruntVersions {
  private TerragruntVersions() {}

  /**
   * The release whose rules a local run with {@code runner} applies: with terragrunt, as {@link
   * #resolve} finds it without an option; with terraform alone, which reads no terragrunt config,
   * the default.
   */
  static TerragruntVersion forRunner(
      RunnerArgv runner,
      Map<String, String> environment,
      CommandRunner processes,
      Consumer<String> progress) {
    return runner == RunnerArgv.TERRAGRUNT
        ? resolve(null, environment, processes, progress)
        : TerragruntVersion.DEFAULT;
  }

  static TerragruntVersion resolve(
      String option,
      Map<String, String> environment,
      CommandRunner runner,
      Consumer<String> progress) {
    if (option != null) {
      return TerragruntVersion.parse(option);
    }
    for (String dir : environment.getOrDefault("PATH", "").split(File.pathSeparator)) {
      Path program = dir.isEmpty() ? null : Path.of(dir, "terragrunt");
      if (program != null && Files.isExecutable(program)) {
        CommandResult result =
            runner.run(
                new Command(
                    List.of(program.toString(), "--version"),
                    Path.of("."),
                    Map.of(),
                    Duration.ofMinutes(1)));
        if (result.exitCode() != 0) {
          throw new LivegateException(
              program
                  + " --version failed (exit "
                  + result.exitCode()
                  + "): "
                  + result.tail(3)
                  + "; pass --terragrunt-version");
        }
        TerragruntVersion version = TerragruntVersion.parse(result.stdout());
        progress.accept("scanning with terragrunt " + version + "'s rules (" + program + ")");
        return version;
      }
    }
    progress.accept(
        "scanning with terragrunt "
            + TerragruntVersion.DEFAULT
            + "'s rules (no terragrunt on PATH; --terragrunt-version sets another)");
    return TerragruntVersion.DEFAULT;
  }
}
