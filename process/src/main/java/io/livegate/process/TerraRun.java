package io.livegate.process;

import io.livegate.core.LivegateException;
import io.livegate.core.deploy.Execution;
import io.livegate.core.deploy.PlanSummary;
import io.livegate.core.flow.PlanJson;
import io.livegate.core.runner.Command;
import io.livegate.core.runner.CommandResult;
import io.livegate.core.runner.CommandRunner;
import io.livegate.core.runner.RunnerKind;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.DigestInputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.Collections;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Plans and applies one execution with terraform or terragrunt as processes: the local runtime's
 * flow and the terra-run ECS task both use it. The plan is saved in the {@code plans} directory
 * with its SHA-256; apply checks the hash against the one recorded at plan time and applies exactly
 * that file.
 */
public final class TerraRun {
  private static final Duration TIMEOUT = Duration.ofHours(2);
  private static final int TAIL_LINES = 30;

  /** A saved plan. */
  public record Plan(Path file, String sha256, PlanSummary summary, String text) {}

  /** How a step ended: {@code error} is null on success. */
  public record Step<T>(T value, String error) {
    static <T> Step<T> failed(String error) {
      return new Step<>(null, error);
    }
  }

  private final CommandRunner runner;
  private final RunnerKind kind;
  private final Path repositoryRoot;
  private final Path plans;
  private final Map<String, String> environment;

  public TerraRun(
      CommandRunner runner,
      RunnerKind kind,
      Path repositoryRoot,
      Path plans,
      Map<String, String> environment) {
    this.runner = runner;
    this.kind = kind;
    this.repositoryRoot = repositoryRoot;
    this.plans = plans;
    this.environment = Map.copyOf(environment);
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
    Path planFile = planFile(planName);
    for (List<String> command : planCommands) {
      CommandResult result = run(withPlanFile(command, planFile));
      if (result.exitCode() != 0) {
        return Step.failed(failure("plan", result));
      }
    }
    CommandResult json =
        run(kind.showCommand(unit, planRole, List.of("-json", planFile.toString())));
    CommandResult text =
        run(kind.showCommand(unit, planRole, List.of("-no-color", planFile.toString())));
    if (json.exitCode() != 0 || text.exitCode() != 0) {
      return Step.failed(failure("show", json.exitCode() != 0 ? json : text));
    }
    return new Step<>(
        new Plan(planFile, sha256(planFile), PlanJson.summary(json.stdout()), text.stdout()), null);
  }

  /**
   * Applies the saved plan if its hash is the one recorded at plan time.
   *
   * @return the full addresses of the resources of {@code newProviders} in the state afterwards
   */
  public Step<List<String>> apply(Execution execution, Set<String> newProviders) {
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
    for (List<String> command : execution.spec().applyCommands()) {
      CommandResult result = run(withPlanFile(command, planFile));
      if (result.exitCode() != 0) {
        return Step.failed(failure("apply", result));
      }
    }
    return new Step<>(newResources(execution, newProviders), null);
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

  /**
   * Whether the unit is where the execution's apply would leave it: how a resumed run learns
   * whether an interrupted apply finished. For a normal execution the state matches the config (a
   * plan with {@code -detailed-exitcode}); for a rollback, none of its targets is left in the
   * state, which a plan of the config would count as changes.
   */
  public Step<Boolean> upToDate(Execution execution) {
    if (execution.rollback()) {
      CommandResult state = run(show(execution, "-json"));
      if (state.exitCode() != 0) {
        return Step.failed(failure("show", state));
      }
      return new Step<>(
          Collections.disjoint(
              PlanJson.addresses(state.stdout()), execution.spec().destroyTargets()),
          null);
    }
    CommandResult result = null;
    for (List<String> command :
        kind.planScanCommands(execution.unit(), execution.spec().planRole())) {
      result = run(command);
      if (result.exitCode() != 0) {
        break;
      }
    }
    if (result.exitCode() == 0 || result.exitCode() == 2) {
      return new Step<>(result.exitCode() == 0, null);
    }
    return Step.failed(failure("plan", result));
  }

  private List<String> show(Execution execution, String... arguments) {
    return kind.showCommand(execution.unit(), execution.spec().planRole(), List.of(arguments));
  }

  private CommandResult run(List<String> argv) {
    return runner.run(new Command(argv, repositoryRoot, environment, TIMEOUT));
  }

  private static List<String> withPlanFile(List<String> command, Path planFile) {
    return command.stream()
        .map(argument -> argument.replace(RunnerKind.PLAN_FILE, planFile.toString()))
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
