package io.livegate.process;

import io.livegate.core.LivegateException;
import io.livegate.core.pr.UnitPlanner;
import io.livegate.core.unit.UnitRunner;
import io.livegate.scan.SandboxedPlan;
import io.livegate.scan.repo.SourceAccess;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * A pull request's unit plan with {@link TerraRun}: the same plan commands as a deployment's Plan,
 * with the account's plan role. The plan file is deleted afterwards: a pull request's plan is never
 * applied, and a plan file can hold secrets.
 */
public final class TerraRunUnitPlanner implements UnitPlanner {
  private final SandboxedPlan.Tools tools;
  private final Path plans;
  private final SourceAccess sources;

  /**
   * @param tools the runner, its argv, the sandbox the pull request's code runs in, and the
   *     environment of terraform or terragrunt
   * @param plans where plan files are written while a plan runs
   * @param sources the remote stack sources' cache, and what a fetch may reach
   */
  public TerraRunUnitPlanner(SandboxedPlan.Tools tools, Path plans, SourceAccess sources) {
    this.tools = tools;
    this.plans = plans;
    this.sources = sources;
  }

  @Override
  public Outcome plan(Path repositoryRoot, String unit, String planRole, String planName) {
    // Its own directory, so that whatever the plan left there is deleted with it.
    Path own = plans.resolve(planName);
    try {
      UnitRunner.Step<UnitRunner.Plan> planned =
          new TerraRun(tools, repositoryRoot, own, sources)
              .plan(unit, planName, tools.argv().planCommands(unit, planRole, List.of()), planRole);
      return planned.error() == null
          ? Outcome.planned(planned.value().summary(), planned.value().text())
          : Outcome.failed(planned.error());
    } finally {
      deleteTree(own);
    }
  }

  private static void deleteTree(Path directory) {
    if (!Files.exists(directory)) {
      return;
    }
    try (Stream<Path> files = Files.walk(directory)) {
      for (Path file : files.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(file);
      }
    } catch (IOException e) {
      throw new LivegateException("cannot delete the pull request's plan file: " + e, e);
    }
  }
}
