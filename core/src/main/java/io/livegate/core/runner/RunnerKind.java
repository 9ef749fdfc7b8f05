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
    public List<List<String>> planScanCommands(String unitDirectory, Account account) {
      List<String> plan =
          new ArrayList<>(
              List.of(
                  "terragrunt",
                  "plan",
                  "--terragrunt-working-dir",
                  unitDirectory,
                  "-detailed-exitcode",
                  "-no-color",
                  "-input=false"));
      if (account.planRole() != null) {
        plan.add("--terragrunt-iam-role");
        plan.add(account.planRole());
      }
      return List.of(plan);
    }
  },
  TERRAFORM {
    @Override
    public List<List<String>> planScanCommands(String unitDirectory, Account account) {
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
  };

  /**
   * The commands that find whether a unit has changes, in order. Each must exit 0; the last one
   * runs with {@code -detailed-exitcode}: 0 means no changes, 2 means changes.
   */
  public abstract List<List<String>> planScanCommands(String unitDirectory, Account account);
}
