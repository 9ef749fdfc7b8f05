package io.livegate.core.deploy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import io.livegate.core.account.Account;
import io.livegate.core.account.Accounts;
import io.livegate.core.runner.RunnerArgv;
import io.livegate.core.stack.AccountOrder;
import io.livegate.core.stack.DeletedUnit;
import io.livegate.core.stack.DeployStack;
import io.livegate.core.stack.PlannedExecution;
import io.livegate.core.stack.Reason;
import io.livegate.core.stack.ScanMode;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A deploy stack's executions: the destroys of deleted units first, dependents first. */
class StackExecutionsTest {
  private static final Accounts DESTROYING =
      Accounts.of(List.of(Account.of("dev", "dev", List.of())));

  /**
   * At the base, dev/app depended on dev/db, which depended on dev/vpc; dev/web depended on dev/db.
   * The merge deletes app, db and vpc, and changes web so it no longer depends on db.
   */
  private static DeployStack stack(boolean destroy) {
    List<Reason> reasons = List.of(new Reason(Reason.Kind.DELETED_FILE, "x/main.tf", null));
    return new DeployStack(
        ScanMode.GRAPH,
        "a".repeat(40),
        "b".repeat(40),
        List.of(new AccountOrder("dev", "dev", List.of())),
        List.of(
            new PlannedExecution(
                "dev/web", "dev", List.of(), 0, List.of(Reason.changedFile("dev/web/x")))),
        List.of(
            new DeletedUnit("dev/app", "dev", reasons, List.of("dev/db"), List.of(), destroy),
            new DeletedUnit(
                "dev/db", "dev", reasons, List.of("dev/vpc"), List.of("dev/web"), destroy),
            new DeletedUnit("dev/vpc", "dev", reasons, List.of(), List.of(), destroy)),
        List.of(),
        List.of());
  }

  @Test
  void deletedUnitsAreDestroyedDependentsFirstFromTheBaseWithPlanDestroy() {
    List<ExecutionSpec> specs =
        StackExecutions.executions(stack(true), DESTROYING, RunnerArgv.TERRAFORM);

    assertThat(specs)
        .extracting(
            ExecutionSpec::unit,
            ExecutionSpec::destroy,
            ExecutionSpec::layer,
            ExecutionSpec::dependsOn)
        .containsExactly(
            tuple("dev/app", true, 0, List.of()),
            tuple("dev/db", true, 1, List.of("dev/app")),
            tuple("dev/vpc", true, 2, List.of("dev/db")),
            tuple("dev/web", false, 3, List.of("dev/db")));
    assertThat(specs.get(0).planCommands().get(1))
        .containsSubsequence("terraform", "-chdir=dev/app", "plan", "-destroy");
    assertThat(specs.get(3).planCommands().get(1)).doesNotContain("-destroy");
    assertThat(specs).allSatisfy(spec -> assertThat(spec.rollback()).isFalse());
  }

  @Test
  void deletedUnitsOfAnAccountThatDoesNotDestroyThemMakeNoExecutions() {
    List<ExecutionSpec> specs =
        StackExecutions.executions(stack(false), DESTROYING, RunnerArgv.TERRAFORM);

    assertThat(specs)
        .extracting(ExecutionSpec::unit, ExecutionSpec::layer, ExecutionSpec::dependsOn)
        .containsExactly(tuple("dev/web", 0, List.of()));
  }
}
