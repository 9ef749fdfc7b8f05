package io.livegate.process;

import static org.assertj.core.api.Assertions.assertThat;

import io.livegate.core.deploy.Execution;
import io.livegate.core.deploy.ExecutionSpec;
import io.livegate.core.deploy.ExecutionStatus;
import io.livegate.core.runner.RunnerArgv;
import io.livegate.core.unit.UnitRunner;
import java.time.Instant;
import java.util.List;

/** Executions of one unit run with terraform, before and after their Plan. */
final class UnitExecutions {
  private UnitExecutions() {}

  /** A running execution of {@code unit}; with destroy targets it is a rollback. */
  static Execution execution(String unit, String name, List<String> destroyTargets) {
    RunnerArgv terraform = RunnerArgv.TERRAFORM;
    ExecutionSpec spec =
        new ExecutionSpec(
            unit,
            "default",
            0,
            List.of(),
            terraform.planCommands(unit, null, destroyTargets),
            terraform.applyCommands(unit, null),
            List.of("operator@localhost"),
            1,
            1,
            null,
            null,
            !destroyTargets.isEmpty(),
            destroyTargets,
            false);
    Instant now = Instant.now();
    return new Execution(
        1,
        1,
        name,
        spec,
        ExecutionStatus.RUNNING,
        List.of(),
        null,
        null,
        null,
        List.of(),
        null,
        now,
        now,
        null);
  }

  /** The execution after Plan: with its saved plan's hash and summary, as the metadb has it. */
  static Execution planned(TerraRun terraRun, Execution execution) {
    UnitRunner.Step<UnitRunner.Plan> plan = terraRun.plan(execution);
    assertThat(plan.error()).as("plan").isNull();
    return new Execution(
        execution.id(),
        execution.deploymentId(),
        execution.name(),
        execution.spec(),
        execution.status(),
        execution.dependsOn(),
        plan.value().file().toString(),
        plan.value().sha256(),
        plan.value().summary(),
        List.of(),
        "approved",
        execution.createdAt(),
        execution.startedAt(),
        null);
  }
}
