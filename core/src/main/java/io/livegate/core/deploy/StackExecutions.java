package io.livegate.core.deploy;

import io.livegate.core.account.Account;
import io.livegate.core.account.Accounts;
import io.livegate.core.runner.RunnerKind;
import io.livegate.core.stack.DeployStack;
import io.livegate.core.stack.PlannedExecution;
import java.util.ArrayList;
import java.util.List;

/** Turns a scan's deploy stack into the executions a deployment stores. */
public final class StackExecutions {
  private StackExecutions() {}

  public static List<ExecutionSpec> executions(
      DeployStack stack, Accounts accounts, RunnerKind runner) {
    List<ExecutionSpec> specs = new ArrayList<>();
    for (PlannedExecution planned : stack.executions()) {
      Account account = accounts.get(planned.account());
      specs.add(
          new ExecutionSpec(
              planned.unit(),
              account.name(),
              planned.layer(),
              planned.dependsOn(),
              runner.planCommands(planned.unit(), account.planRole(), List.of()),
              runner.applyCommands(planned.unit(), account.applyRole()),
              account.voters(),
              account.minApprovals(),
              account.minRejections(),
              account.planRole(),
              account.applyRole(),
              false,
              List.of()));
    }
    return specs;
  }
}
