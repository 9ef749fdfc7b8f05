package io.livegate.process;

import io.livegate.core.LivegateException;
import io.livegate.core.pr.UnitPlanner;
import io.livegate.core.runner.CommandRunner;
import io.livegate.core.runner.RunnerArgv;
import io.livegate.core.runner.Sandbox;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * A pull request's unit plan with {@link TerraRun}: the same plan commands as a deployment's Plan,
 * with the account's plan role. The plan file is deleted afterwards: a pull request's plan is never
 * applied, and a plan file can hold secrets.
 */
public final class TerraRunUnitPlanner implements UnitPlanner {
  private final CommandRunner runner;
  private final RunnerArgv kind;
  private final Path plans;
  private final Map<String, String> environment;
  private final Sandbox sandbox;

  /**
   * @param plans where plan files are written while a plan runs
   * @param environment the environment of terraform or terragrunt
   * @param sandbox where terraform or terragrunt run the pull request's code
   */
  public TerraRunUnitPlanner(
      CommandRunner runner,
      RunnerArgv kind,
      Path plans,
      Map<String, String> environment,
      Sandbox sandbox) {
    this.runner = runner;
    this.kind = kind;
    this.plans = plans;
    this.environment = Map.copyOf(environment);
    this.sandbox = sandbox;
  }

  @Override
  public Outcome plan(Path repositoryRoot, String unit, String planRole, String planName) {
    try {
      Files.createDirectories(plans);
    } catch (IOException e) {
      throw new LivegateException("cannot create " + plans + ": " + e.getMessage(), e);
    }
    TerraRun terraRun = new TerraRun(runner, kind, repositoryRoot, plans, environment, sandbox);
    try {
      TerraRun.Step<TerraRun.Plan> planned =
          terraRun.plan(unit, planName, kind.planCommands(unit, planRole, List.of()), planRole);
      return planned.error() == null
          ? Outcome.planned(planned.value().summary(), planned.value().text())
          : Outcome.failed(planned.error());
    } finally {
      try {
        Files.deleteIfExists(terraRun.planFile(planName));
      } catch (IOException e) {
        throw new LivegateException("cannot delete the pull request's plan file: " + e, e);
      }
    }
  }
}
