package io.livegate.core.runner;

import io.livegate.core.account.Account;
import java.util.ArrayList;
import java.util.List;

/**
 * Which tool plans and applies a unit. Production runs terragrunt; local runs and tests run
 * terraform directly, because terragrunt cannot be installed everywhere (docs/adr/0003).
 */
public enum RunnerKind {
  TERRAGRUNT {
    @Override
    public List<List<String>> planScanCommands(String unitDirectory, String planRole) {
      return List.of(
          withRole(
              List.of(
                  "terragrunt",
                  "plan",
                  "--terragrunt-working-dir",
                  unitDirectory,
                  "-detailed-exitcode",
                  "-no-color",
                  "-input=false"),
              planRole));
    }

    @Override
    public List<List<String>> planCommands(
        String unit, String planRole, List<String> destroyTargets) {
      List<String> plan =
          new ArrayList<>(
              List.of(
                  "terragrunt",
                  "plan",
                  "--terragrunt-working-dir",
                  unit,
                  "-out=" + PLAN_FILE,
                  "-input=false",
                  "-no-color"));
      addDestroyTargets(plan, destroyTargets);
      return List.of(withRole(plan, planRole));
    }

    @Override
    public List<List<String>> applyCommands(String unit, String applyRole) {
      return List.of(
          withRole(
              List.of(
                  "terragrunt",
                  "apply",
                  "--terragrunt-working-dir",
                  unit,
                  "-input=false",
                  "-no-color",
                  PLAN_FILE),
              applyRole));
    }

    @Override
    public List<String> showCommand(String unit, String role, List<String> arguments) {
      List<String> show =
          new ArrayList<>(List.of("terragrunt", "show", "--terragrunt-working-dir", unit));
      show.addAll(arguments);
      return withRole(show, role);
    }
  },
  TERRAFORM {
    @Override
    public List<List<String>> planScanCommands(String unitDirectory, String planRole) {
      String chdir = "-chdir=" + unitDirectory;
      return List.of(
          List.of("terraform", chdir, "init", "-input=false", "-no-color"),
          List.of(
              "terraform",
              chdir,
              "plan",
              "-detailed-exitcode",
              "-no-color",
              "-input=false",
              "-lock=false"));
    }

    @Override
    public List<List<String>> planCommands(
        String unit, String planRole, List<String> destroyTargets) {
      String chdir = "-chdir=" + unit;
      List<String> plan =
          new ArrayList<>(
              List.of(
                  "terraform", chdir, "plan", "-out=" + PLAN_FILE, "-input=false", "-no-color"));
      addDestroyTargets(plan, destroyTargets);
      return List.of(List.of("terraform", chdir, "init", "-input=false", "-no-color"), plan);
    }

    @Override
    public List<List<String>> applyCommands(String unit, String applyRole) {
      return List.of(
          List.of("terraform", "-chdir=" + unit, "apply", "-input=false", "-no-color", PLAN_FILE));
    }

    @Override
    public List<String> showCommand(String unit, String role, List<String> arguments) {
      List<String> show = new ArrayList<>(List.of("terraform", "-chdir=" + unit, "show"));
      show.addAll(arguments);
      return show;
    }
  };

  /**
   * Stands for the saved plan file's path in {@link #planCommands} and {@link #applyCommands}; each
   * runtime replaces an argument that is exactly it, or exactly {@code -out=} and it, never text
   * inside another argument (a unit's path is data from the repository).
   */
  public static final String PLAN_FILE = "{plan_file}";

  /**
   * The commands that find whether a unit has changes, in order. Each must exit 0; the last one
   * runs with {@code -detailed-exitcode}: 0 means no changes, 2 means changes.
   */
  public abstract List<List<String>> planScanCommands(String unitDirectory, String planRole);

  /** {@link #planScanCommands(String, String)} with the account's plan role. */
  public List<List<String>> planScanCommands(String unitDirectory, Account account) {
    return planScanCommands(unitDirectory, account.planRole());
  }

  /**
   * The commands that save a unit's plan to {@link #PLAN_FILE}, run from the repository root.
   *
   * @param destroyTargets for a rollback, the full addresses to destroy; empty otherwise
   */
  public abstract List<List<String>> planCommands(
      String unit, String planRole, List<String> destroyTargets);

  /** The commands that apply exactly the saved plan file, run from the repository root. */
  public abstract List<List<String>> applyCommands(String unit, String applyRole);

  /**
   * {@code show} for a unit: with a plan file argument it prints the plan, without it the state.
   */
  public abstract List<String> showCommand(String unit, String role, List<String> arguments);

  private static List<String> withRole(List<String> command, String role) {
    if (role == null) {
      return command;
    }
    List<String> withRole = new ArrayList<>(command);
    withRole.add("--terragrunt-iam-role");
    withRole.add(role);
    return withRole;
  }

  private static void addDestroyTargets(List<String> plan, List<String> destroyTargets) {
    if (!destroyTargets.isEmpty()) {
      plan.add("-destroy");
      destroyTargets.forEach(target -> plan.add("-target=" + target));
    }
  }
}
