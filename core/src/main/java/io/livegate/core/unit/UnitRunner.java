package io.livegate.core.unit;

import io.livegate.core.deploy.Execution;
import io.livegate.core.deploy.PlanSummary;
import io.livegate.core.flow.PlanJson;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;

/**
 * terraform or terragrunt, running one execution's commands in a workspace (the process module's
 * {@code TerraRun}). Plan files are written to, and read from, the runner's own plan directory,
 * which the sandbox shows to the one command that needs the file.
 */
public interface UnitRunner {
  /**
   * A saved plan.
   *
   * @param changes each changed resource with its actions ({@link PlanJson#changes})
   */
  record Plan(Path file, String sha256, PlanSummary summary, String text, List<String> changes) {}

  /**
   * How an apply that livegate's death interrupted was finished.
   *
   * @param newResources the state's resources of the execution's new providers afterwards
   * @param detail what happened, for the flow's history and the log
   */
  record Resumed(List<String> newResources, String detail) {}

  /** How a step ended: {@code error} is null on success. */
  record Step<T>(T value, String error) {
    public static <T> Step<T> failed(String error) {
      return new Step<>(null, error);
    }
  }

  /** The same runner, running from the workspace at {@code root}. */
  UnitRunner at(Path root);

  /** Where the plan file of {@code execution} is while a command of it runs. */
  Path planFile(Execution execution);

  /** Plans {@code execution} with its plan commands into {@link #planFile}. */
  Step<Plan> plan(Execution execution);

  /**
   * Applies the plan file, if it is the approved one (its SHA-256 and its changes).
   *
   * @return the full addresses of the resources of {@code newProviders} in the state afterwards
   */
  Step<List<String>> apply(Execution execution, Set<String> newProviders);

  /**
   * Finishes an apply that livegate's death (or its task's) interrupted: only what the voters
   * approved and is left is applied.
   */
  Step<Resumed> finishInterruptedApply(Execution execution, Set<String> newProviders);

  /** Waits for an apply of {@code execution} that outlived the run that started it. */
  boolean awaitOrphanedApply(Execution execution, Consumer<String> log);

  /** The state's resources of {@code providers}, by full address. */
  List<String> newResources(Execution execution, Set<String> providers);
}
