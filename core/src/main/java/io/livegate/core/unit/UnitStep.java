package io.livegate.core.unit;

import io.livegate.core.deploy.Deployment;
import io.livegate.core.deploy.Execution;
import io.livegate.core.deploy.ExecutionStore;
import io.livegate.core.vote.ApplyGate;
import io.livegate.core.vote.VoteStore;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;

/**
 * One unit's Plan and Apply (an apply, a destroy, or finishing an apply that livegate's death
 * interrupted), the same for the local executor and the terra-run ECS task: each command runs in a
 * workspace of the deployment's commit, the plan is kept in the {@link PlanStore} under a reference
 * the execution records, and Apply runs only the stored plan whose votes and hash the {@link
 * ApplyGate} and the runner accept. What the runtime does around it (flow states, statuses, task
 * tokens, mail) stays the runtime's.
 */
public final class UnitStep {
  /** The ports one step goes through. */
  public record Ports(
      ExecutionStore executions,
      VoteStore votes,
      PlanStore plans,
      Workspaces workspaces,
      UnitRunner runner) {}

  /** A plan kept in the plan store and recorded on the execution under {@code reference}. */
  public record Planned(String reference, UnitRunner.Plan plan) {}

  /** How an apply ended. */
  public sealed interface ApplyOutcome {
    /** What happened, for the flow's history and the log. */
    String why();
  }

  /** Applied (or the interrupted apply finished); {@code detail} says what happened. */
  public record Applied(List<String> newResources, String detail) implements ApplyOutcome {
    @Override
    public String why() {
      return detail;
    }
  }

  /** Not run: the recorded votes or plan do not allow it. Nothing was applied. */
  public record Refused(String why) implements ApplyOutcome {}

  /** Run and failed; what it created before it stopped is recorded for the rollback. */
  public record Failed(String why) implements ApplyOutcome {}

  private final Ports ports;

  public UnitStep(Ports ports) {
    this.ports = ports;
  }

  /** Plans {@code execution}, keeps the plan in the store and records it on the execution. */
  public UnitRunner.Step<Planned> plan(Deployment deployment, Execution execution) {
    try (Workspaces.Workspace workspace = ports.workspaces().toPlan(deployment, execution)) {
      UnitRunner.Step<UnitRunner.Plan> planned =
          ports.runner().at(workspace.root()).plan(execution);
      if (planned.error() != null) {
        return UnitRunner.Step.failed(planned.error());
      }
      UnitRunner.Plan plan = planned.value();
      String reference = ports.plans().save(execution, plan.file(), plan.text());
      ports.executions().recordPlan(execution.id(), reference, plan.sha256(), plan.summary());
      return new UnitRunner.Step<>(new Planned(reference, plan), null);
    }
  }

  /**
   * Applies the approved plan of {@code approved}, or with {@code interrupted} finishes the apply
   * that a run which died had started: it waits for that apply if it outlived its run, then applies
   * only what the voters approved and is left. New resources are recorded either way, so a rollback
   * destroys what a failed apply created.
   */
  public ApplyOutcome apply(
      Deployment deployment, Execution approved, boolean interrupted, Consumer<String> log) {
    // The flow chose Apply, but whoever answered its question may not have had the right to: the
    // recorded votes decide.
    Optional<String> refusal = ApplyGate.refusal(approved, ports.votes().votes(approved.id()));
    if (refusal.isPresent()) {
      return new Refused(refusal.get());
    }
    if (approved.planArtifact() == null || approved.planSha256() == null) {
      return new Refused("it has no recorded plan; nothing was applied");
    }
    Set<String> newProviders = Set.copyOf(approved.planSummary().newProviders());
    try (Workspaces.Workspace workspace = ports.workspaces().toApply(deployment, approved)) {
      UnitRunner runner = ports.runner().at(workspace.root());
      if (interrupted) {
        runner.awaitOrphanedApply(approved, log);
      }
      // The runner checks the loaded file against the SHA-256 recorded at plan time.
      ports.plans().load(approved.planArtifact(), runner.planFile(approved));
      UnitRunner.Step<Applied> applied =
          interrupted
              ? finish(runner, approved, newProviders)
              : run(runner, approved, newProviders);
      if (applied.error() != null) {
        ports
            .executions()
            .recordNewResources(approved.id(), runner.newResources(approved, newProviders));
        return new Failed(applied.error());
      }
      ports.executions().recordNewResources(approved.id(), applied.value().newResources());
      return applied.value();
    }
  }

  private static UnitRunner.Step<Applied> run(
      UnitRunner runner, Execution approved, Set<String> newProviders) {
    UnitRunner.Step<List<String>> applied = runner.apply(approved, newProviders);
    return applied.error() != null
        ? UnitRunner.Step.failed(applied.error())
        : new UnitRunner.Step<>(
            new Applied(applied.value(), approved.destroy() ? "destroyed" : "applied"), null);
  }

  private static UnitRunner.Step<Applied> finish(
      UnitRunner runner, Execution approved, Set<String> newProviders) {
    UnitRunner.Step<UnitRunner.Resumed> resumed =
        runner.finishInterruptedApply(approved, newProviders);
    return resumed.error() != null
        ? UnitRunner.Step.failed(resumed.error())
        : new UnitRunner.Step<>(
            new Applied(resumed.value().newResources(), resumed.value().detail()), null);
  }
}
