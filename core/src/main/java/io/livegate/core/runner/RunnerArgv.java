package io.livegate.core.runner;

import io.livegate.core.account.Account;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The argv of the tool that plans and applies a unit. Production runs terragrunt (the 1.x CLI; the
 * flags are held against the pinned version's flag list by {@code TerragruntArgvContractTest});
 * local runs and tests run terraform directly, because terragrunt cannot be installed everywhere
 * (docs/adr/0003).
 *
 * <p>terragrunt plans run with {@code -lock=false}: the plan role is read-only, so it cannot take
 * the backend's state lock; nothing is written by a plan, and apply refuses a saved plan whose
 * state has moved on (terraform's stale-plan check), so an unlocked plan never applies over a
 * concurrent change.
 */
public enum RunnerArgv {
  TERRAGRUNT {
    @Override
    public List<List<String>> planScanCommands(String unitDirectory, String planRole) {
      return List.of(
          terragrunt(
              unitDirectory,
              planRole,
              List.of("plan", "-detailed-exitcode", "-no-color", "-input=false", "-lock=false")));
    }

    @Override
    public List<List<String>> planCommands(
        String unit, String planRole, List<String> destroyTargets) {
      List<String> plan =
          new ArrayList<>(
              List.of("plan", "-out=" + PLAN_FILE, "-input=false", "-no-color", "-lock=false"));
      addDestroyTargets(plan, destroyTargets);
      return List.of(terragrunt(unit, planRole, plan));
    }

    @Override
    public List<List<String>> applyCommands(String unit, String applyRole) {
      return List.of(
          terragrunt(unit, applyRole, List.of("apply", "-input=false", "-no-color", PLAN_FILE)));
    }

    @Override
    public List<List<String>> initCommands(String unit, String role) {
      // terragrunt initialises a unit on its own when a command needs it (auto-init)
      return List.of();
    }

    @Override
    public List<String> showCommand(String unit, String role, List<String> arguments) {
      List<String> show = new ArrayList<>(List.of("show"));
      show.addAll(arguments);
      return terragrunt(unit, role, show);
    }

    /**
     * terragrunt 1.x's explicit form: {@code terragrunt run [flags] -- <terraform command>}. The
     * flags are terragrunt's own ({@code --working-dir}, {@code --non-interactive}, {@code
     * --log-disable} so that only terraform's output is printed, with no log prefixes, and {@code
     * --iam-assume-role}); everything after {@code --} is terraform's.
     */
    private static List<String> terragrunt(String unit, String role, List<String> terraform) {
      List<String> argv =
          new ArrayList<>(
              List.of(
                  "terragrunt",
                  "run",
                  "--working-dir",
                  unit,
                  "--non-interactive",
                  "--log-disable"));
      if (role != null) {
        argv.add("--iam-assume-role");
        argv.add(role);
      }
      argv.add("--");
      argv.addAll(terraform);
      return List.copyOf(argv);
    }

    @Override
    public List<String> forceUnlockCommand(String unit, String role, String lockId) {
      return terragrunt(unit, role, List.of("force-unlock", "-force", lockId));
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
    public List<List<String>> initCommands(String unit, String role) {
      return List.of(List.of("terraform", "-chdir=" + unit, "init", "-input=false", "-no-color"));
    }

    @Override
    public List<String> showCommand(String unit, String role, List<String> arguments) {
      List<String> show = new ArrayList<>(List.of("terraform", "-chdir=" + unit, "show"));
      show.addAll(arguments);
      return show;
    }

    @Override
    public List<String> forceUnlockCommand(String unit, String role, String lockId) {
      return List.of("terraform", "-chdir=" + unit, "force-unlock", "-force", lockId);
    }
  };

  /**
   * Stands for the saved plan file's path in {@link #planCommands} and {@link #applyCommands}; each
   * runtime replaces an argument that is exactly it, or exactly {@code -out=} and it, never text
   * inside another argument (a unit's path is data from the repository).
   */
  public static final String PLAN_FILE = "{plan_file}";

  /**
   * Why this runner refuses to run {@code unit}'s {@code step} under the account's {@code role}:
   * the terraform runner has no way to assume a role, and running with livegate's own credentials
   * instead of the account's plan or apply role would be a silent widening of rights. Empty when
   * there is no role or the runner assumes it (terragrunt).
   *
   * @param step {@code plan} or {@code apply}, as the accounts file names the role
   */
  public Optional<String> refusedRole(String step, String unit, String role) {
    if (role == null || this != TERRAFORM) {
      return Optional.empty();
    }
    return Optional.of(
        "the terraform runner cannot assume the "
            + step
            + " role "
            + role
            + " of "
            + unit
            + "; use the terragrunt runner, or remove the account's "
            + step
            + "_role; nothing was run");
  }

  /**
   * The commands that find whether a unit has changes, in order. Each must exit 0; the last one
   * runs with {@code -detailed-exitcode}: 0 means no changes, 2 means changes.
   */
  public abstract List<List<String>> planScanCommands(String unitDirectory, String planRole);

  /**
   * The commands that find whether a unit drifted: {@link #planScanCommands} that also save the
   * plan to {@link #PLAN_FILE}, so that its changes can be read back with {@link #showCommand}.
   */
  public List<List<String>> driftPlanCommands(String unitDirectory, Account account) {
    List<List<String>> commands =
        new ArrayList<>(planScanCommands(unitDirectory, account.planRole()));
    List<String> plan = new ArrayList<>(commands.get(commands.size() - 1));
    plan.add("-out=" + PLAN_FILE);
    commands.set(commands.size() - 1, plan);
    return commands;
  }

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

  /**
   * The commands that save a plan destroying everything in a unit's state to {@link #PLAN_FILE}:
   * {@link #planCommands} with {@code -destroy}. They run from a checkout of the commit where the
   * unit still exists.
   */
  public List<List<String>> destroyPlanCommands(String unit, String planRole) {
    List<List<String>> commands = new ArrayList<>(planCommands(unit, planRole, List.of()));
    List<String> plan = new ArrayList<>(commands.get(commands.size() - 1));
    plan.add("-destroy");
    commands.set(commands.size() - 1, plan);
    return commands;
  }

  /** The commands that apply exactly the saved plan file, run from the repository root. */
  public abstract List<List<String>> applyCommands(String unit, String applyRole);

  /**
   * What readies a unit's directory for {@link #showCommand} and {@link #applyCommands} when its
   * plan ran elsewhere (in a throwaway copy, or another task): run from the repository root.
   */
  public abstract List<List<String>> initCommands(String unit, String role);

  /**
   * {@code show} for a unit: with a plan file argument it prints the plan, without it the state.
   */
  public abstract List<String> showCommand(String unit, String role, List<String> arguments);

  /**
   * Releases the state lock {@code lockId} of a unit without asking: only for a lock that livegate
   * knows its own killed apply left.
   */
  public abstract List<String> forceUnlockCommand(String unit, String role, String lockId);

  private static void addDestroyTargets(List<String> plan, List<String> destroyTargets) {
    if (!destroyTargets.isEmpty()) {
      plan.add("-destroy");
      destroyTargets.forEach(target -> plan.add("-target=" + target));
    }
  }
}
