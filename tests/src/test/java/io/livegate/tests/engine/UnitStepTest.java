package io.livegate.tests.engine;

import static io.livegate.sql.testing.SyntheticDeployments.command;
import static io.livegate.sql.testing.SyntheticDeployments.unit;
import static org.assertj.core.api.Assertions.assertThat;

import io.livegate.core.account.Accounts;
import io.livegate.core.deploy.Deployment;
import io.livegate.core.deploy.Execution;
import io.livegate.core.deploy.PlanSummary;
import io.livegate.core.unit.PlanStore;
import io.livegate.core.unit.UnitRunner;
import io.livegate.core.unit.UnitStep;
import io.livegate.core.unit.Workspaces;
import io.livegate.core.vote.Vote;
import io.livegate.sql.testing.SyntheticDeployments;
import io.livegate.sql.testing.TestEngine;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The unit step both runtimes call, on the real metadb, with a scripted runner in place of
 * terraform: the plan is kept under its reference and loaded back for the apply, in a workspace of
 * its own per command, and only what the recorded votes approve is applied.
 */
class UnitStepTest {
  private static final String ALICE = "alice@example.com";
  private static final PlanSummary ONE_NEW =
      new PlanSummary(1, 0, 0, List.of("registry.terraform.io/hashicorp/null"));

  @TempDir Path dir;

  private final TestEngine engine = TestEngine.fresh();
  private final Map<String, byte[]> stored = new HashMap<>();
  private final List<String> ran = new ArrayList<>();
  private final List<Path> workspaces = new ArrayList<>();

  @Test
  void aPlanIsKeptUnderItsReferenceAndItsApplyRunsTheLoadedFileInAFreshWorkspace() {
    Execution execution = released();
    UnitStep step = step(new Scripted(null));

    UnitRunner.Step<UnitStep.Planned> planned = step.plan(deployment(execution), execution);
    engine.castVote.cast(execution.id(), ALICE, Vote.Choice.APPROVE);
    Execution approved = engine.executions.find(execution.id()).orElseThrow();
    UnitStep.ApplyOutcome outcome = step.apply(deployment(execution), approved, false, line -> {});

    String reference = "plans/" + execution.deploymentId() + "/" + execution.name() + ".tfplan";
    assertThat(planned.value().reference()).isEqualTo(reference);
    assertThat(approved.planArtifact()).isEqualTo(reference);
    assertThat(stored).containsKey(reference);
    assertThat(outcome).isEqualTo(new UnitStep.Applied(List.of("null_resource.x"), "applied"));
    assertThat(ran).containsExactly("plan", "apply the plan of " + execution.name());
    assertThat(workspaces).hasSize(2).doesNotHaveDuplicates();
    assertThat(engine.executions.find(execution.id()).orElseThrow().newResources())
        .containsExactly("null_resource.x");
  }

  @Test
  void anApplyTheRecordedVotesDoNotApproveIsRefusedAndRunsNothing() {
    Execution execution = released();
    UnitStep step = step(new Scripted(null));
    step.plan(deployment(execution), execution);
    Execution planned = engine.executions.find(execution.id()).orElseThrow();

    UnitStep.ApplyOutcome outcome = step.apply(deployment(execution), planned, false, line -> {});

    assertThat(outcome).isInstanceOf(UnitStep.Refused.class);
    assertThat(ran).containsExactly("plan");
  }

  @Test
  void aFailedApplyRecordsWhatItCreatedForTheRollback() {
    Execution execution = released();
    UnitStep step = step(new Scripted("apply exited with 1"));
    step.plan(deployment(execution), execution);
    engine.castVote.cast(execution.id(), ALICE, Vote.Choice.APPROVE);
    Execution approved = engine.executions.find(execution.id()).orElseThrow();

    UnitStep.ApplyOutcome outcome = step.apply(deployment(execution), approved, false, line -> {});

    assertThat(outcome).isEqualTo(new UnitStep.Failed("apply exited with 1"));
    assertThat(engine.executions.find(execution.id()).orElseThrow().newResources())
        .containsExactly("null_resource.x");
  }

  private Execution released() {
    Accounts accounts = SyntheticDeployments.accounts(1, List.of(ALICE), 1, 1);
    long id =
        engine
            .create
            .create(command(1, accounts, List.of(unit("account-0/app", "account-0", 0, List.of()))))
            .deployment()
            .id();
    return engine.release.release(id).get(0);
  }

  private Deployment deployment(Execution execution) {
    return engine.deployments.find(execution.deploymentId()).orElseThrow();
  }

  private UnitStep step(UnitRunner runner) {
    Workspaces fresh =
        new Workspaces() {
          @Override
          public Workspace toPlan(Deployment deployment, Execution execution) {
            return open();
          }

          @Override
          public Workspace toApply(Deployment deployment, Execution execution) {
            return open();
          }

          private Workspace open() {
            Path root = dir.resolve("workspace-" + workspaces.size());
            workspaces.add(root);
            return () -> root;
          }
        };
    return new UnitStep(
        new UnitStep.Ports(
            engine.executions, engine.votes, new InMemoryPlanStore(), fresh, runner));
  }

  /** The plan store as a map, by reference. */
  private final class InMemoryPlanStore implements PlanStore {
    @Override
    public String save(Execution execution, Path planFile, String planText) {
      stored.put(PlanStore.reference(execution), read(planFile));
      return PlanStore.reference(execution);
    }

    @Override
    public void load(String reference, Path target) {
      try {
        Files.createDirectories(target.getParent());
        Files.write(target, stored.get(reference));
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }

    @Override
    public String text(String reference) {
      return "";
    }
  }

  /** terraform as a script: a plan writes its file, an apply checks it is the saved one. */
  private final class Scripted implements UnitRunner {
    private final String applyError;
    private Path root;

    Scripted(String applyError) {
      this.applyError = applyError;
    }

    @Override
    public UnitRunner at(Path workspace) {
      Scripted scripted = new Scripted(applyError);
      scripted.root = workspace;
      return scripted;
    }

    @Override
    public Path planFile(Execution execution) {
      return root.resolve(execution.name() + ".tfplan");
    }

    @Override
    public Step<Plan> plan(Execution execution) {
      ran.add("plan");
      Path file = planFile(execution);
      write(file, "the plan of " + execution.name());
      return new Step<>(new Plan(file, "ab".repeat(32), ONE_NEW, "text", List.of()), null);
    }

    @Override
    public Step<List<String>> apply(Execution execution, Set<String> newProviders) {
      ran.add("apply " + new String(read(planFile(execution))));
      return applyError == null
          ? new Step<>(List.of("null_resource.x"), null)
          : Step.failed(applyError);
    }

    @Override
    public Step<Resumed> finishInterruptedApply(Execution execution, Set<String> newProviders) {
      throw new AssertionError("not interrupted");
    }

    @Override
    public boolean awaitOrphanedApply(Execution execution, Consumer<String> log) {
      return false;
    }

    @Override
    public List<String> newResources(Execution execution, Set<String> providers) {
      return List.of("null_resource.x");
    }
  }

  private static byte[] read(Path file) {
    try {
      return Files.readAllBytes(file);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static void write(Path file, String content) {
    try {
      Files.createDirectories(file.getParent());
      Files.writeString(file, content);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
