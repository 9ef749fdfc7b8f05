package io.livegate.scan.testing;

import io.livegate.core.ProgressListener;
import io.livegate.core.account.Accounts;
import io.livegate.core.stack.DeployStack;
import io.livegate.core.stack.PlannedExecution;
import io.livegate.scan.GraphScan;
import io.livegate.scan.ScanCommand;
import java.util.List;
import java.util.Map;

/** Graph scans of a {@link TestRepo}, and the parts of a deploy stack that tests look at. */
public final class Scans {
  private Scans() {}

  /** The graph scan from {@code base} to {@code head} of the whole repository as one account. */
  public static DeployStack graphScan(TestRepo repo, String base, String head) {
    return graphScan(repo, base, head, Accounts.wholeRepository(), Map.of());
  }

  public static DeployStack graphScan(
      TestRepo repo, String base, String head, Accounts accounts, Map<String, String> environment) {
    return new GraphScan(ProgressListener.silent())
        .run(
            ScanCommand.builder(repo.root(), accounts)
                .base(base)
                .head(head)
                .environment(environment)
                .parallelism(2)
                .build());
  }

  /** The command of the graph scan of every unit at {@code head}, to adjust before running it. */
  public static ScanCommand allUnitsCommand(TestRepo repo, String head) {
    return ScanCommand.builder(repo.root(), Accounts.wholeRepository())
        .head(head)
        .everyUnit()
        .parallelism(2)
        .build();
  }

  public static DeployStack run(ScanCommand command) {
    return new GraphScan(ProgressListener.silent()).run(command);
  }

  /** The graph scan of every unit at {@code head}, which shows the whole dependency graph. */
  public static DeployStack allUnits(TestRepo repo, String head, Map<String, String> environment) {
    return new GraphScan(ProgressListener.silent())
        .run(
            ScanCommand.builder(repo.root(), Accounts.wholeRepository())
                .head(head)
                .everyUnit()
                .environment(environment)
                .parallelism(2)
                .build());
  }

  public static DeployStack allUnits(TestRepo repo, String head) {
    return allUnits(repo, head, Map.of());
  }

  /** The unit ids of the stack's executions, in order. */
  public static List<String> units(DeployStack stack) {
    return stack.executions().stream().map(PlannedExecution::unit).toList();
  }

  /** The execution of {@code unit}; fails when the stack has none. */
  public static PlannedExecution execution(DeployStack stack, String unit) {
    return stack.executions().stream()
        .filter(execution -> execution.unit().equals(unit))
        .findFirst()
        .orElseThrow(() -> new AssertionError(unit + " is not in the stack: " + units(stack)));
  }
}
