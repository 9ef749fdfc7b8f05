package io.livegate.tasks;

import io.livegate.aws.SfnTaskTokens;
import io.livegate.core.deploy.CommitStatusPublisher;
import io.livegate.core.deploy.CommitStatusPublisher.State;
import io.livegate.core.deploy.Deployment;
import io.livegate.core.deploy.DeploymentStore;
import io.livegate.core.deploy.Execution;
import io.livegate.core.deploy.ExecutionStatus;
import io.livegate.core.deploy.ExecutionStore;
import io.livegate.core.deploy.StatusTexts;
import io.livegate.core.flow.FlowState;
import io.livegate.core.unit.PlanStore;
import io.livegate.core.unit.UnitRunner;
import io.livegate.core.unit.UnitStep;
import io.livegate.core.unit.Workspaces;
import io.livegate.core.vote.VoteStore;
import io.livegate.process.DurableKeptOutputRunner;
import io.livegate.process.TerraRun;
import io.livegate.scan.SandboxedPlan;
import io.livegate.scan.repo.Checkout;
import io.livegate.scan.repo.SourceAccess;
import io.livegate.statemachine.DeployFlow;
import io.livegate.statemachine.PlanResult;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * terra-run: one execution's Plan or Apply inside the deploy flow. The execution record in the
 * metadb says what to run (its argv commands, roles and the merge commit); the flow passes only its
 * id, and for Plan the task token to answer.
 */
public final class TerraRunJob {
  /**
   * What the task works with.
   *
   * @param unitStep plans and applies the unit, as the local executor does
   * @param statuses where {@code livegate/deploy: <unit>} goes at each step, with {@code logUrl}
   * @param logUrl the link to the task's log, in statuses and in the plan's result
   * @param resuming readies this task's workspace to finish an Apply that a killed task left
   */
  public record Ports(
      DeploymentStore deployments,
      ExecutionStore executions,
      UnitStep unitStep,
      SfnTaskTokens tokens,
      CommitStatusPublisher statuses,
      String logUrl,
      Resuming resuming) {}

  /**
   * Gives the task that retries a killed Apply what the killed one kept beyond its container: its
   * apply's output ({@link DurableKeptOutputRunner}), from which {@link
   * TerraRun#finishInterruptedApply} tells that terraform had failed, so what failed is recorded
   * failed and never applied again.
   */
  @FunctionalInterface
  public interface Resuming {
    void restore(Execution execution);

    /** The output {@code durable} kept of the applies run in {@code workspace}. */
    static Resuming from(DurableKeptOutputRunner durable, Path workspace) {
      return execution -> durable.restore(TerraRun.applyPidFile(plans(workspace), execution));
    }
  }

  private final Ports ports;
  private final Consumer<String> log;
  private final Clock clock;

  /**
   * @param log the task's log (its stdout, which CloudWatch keeps)
   */
  public TerraRunJob(Ports ports, Consumer<String> log, Clock clock) {
    this.ports = ports;
    this.log = log;
    this.clock = clock;
  }

  /**
   * The task's unit step: each command in a checkout of its commit in {@code workspace}'s {@code
   * repository}, which persists between Plan and Apply only when the runtime keeps it (tests do; a
   * task gets a fresh one, with state in its backend), its plan file in {@code plans} there while a
   * command runs, and the plans kept in {@code plans} (the artifact bucket).
   *
   * @param tools on ECS, terraform and terragrunt run as an unprivileged user ({@link
   *     io.livegate.process.SetprivSandbox}), with each account role's session
   */
  public static UnitStep unitStep(
      ExecutionStore executions,
      VoteStore votes,
      PlanStore plans,
      Checkout checkout,
      SandboxedPlan.Tools tools,
      Path workspace) {
    return new UnitStep(
        new UnitStep.Ports(
            executions,
            votes,
            plans,
            // Each Plan and Apply is a task of its own, in a container of its own: no command sees
            // what another wrote.
            (deployment, execution) -> {
              Path root =
                  checkout.at(
                      workspace.resolve("repository"), Workspaces.commitOf(deployment, execution));
              return () -> root;
            },
            new TerraRun(
                tools,
                workspace.resolve("repository"),
                plans(workspace),
                SourceAccess.in(workspace))));
  }

  /** Where a task's plan files are while its command runs: the log names executions by them. */
  public static Path plans(Path workspace) {
    return workspace.resolve("plans");
  }

  /** Plans and answers the task token; the exit code is for the log, the token is the result. */
  public int plan(long executionId, String taskToken) {
    Optional<Execution> found = running(executionId);
    if (found.isEmpty()) {
      ports
          .tokens()
          .fail(taskToken, "livegate.NotRunning", "execution " + executionId + " is not running");
      return 1;
    }
    Execution execution = found.get();
    Deployment deployment = ports.deployments().find(execution.deploymentId()).orElseThrow();
    try {
      ports
          .executions()
          .enterFlowState(executionId, FlowState.PLAN.stateName(), null, clock.instant());
      publish(deployment, execution, State.PENDING, "planning");
      UnitRunner.Step<UnitStep.Planned> planned = ports.unitStep().plan(deployment, execution);
      if (planned.error() != null) {
        log.accept("[" + execution.unit() + "] plan failed: " + planned.error());
        publish(
            deployment,
            execution,
            State.FAILURE,
            "plan failed: " + StatusTexts.headline(planned.error()));
        ports.tokens().fail(taskToken, DeployFlow.PLAN_FAILED_ERROR, planned.error());
        return 1;
      }
      String key = planned.value().reference();
      UnitRunner.Plan plan = planned.value().plan();
      ports
          .tokens()
          .succeed(
              taskToken,
              new PlanResult(key, plan.sha256(), plan.summary(), ports.logUrl()).toJson());
      log.accept("[" + execution.unit() + "] planned " + key + " (" + plan.sha256() + ")");
      publish(
          deployment,
          execution,
          State.PENDING,
          "planned " + StatusTexts.summary(plan.summary()) + "; waiting for the vote");
      return 0;
    } catch (RuntimeException e) {
      log.accept("[" + execution.unit() + "] " + e.getMessage());
      publish(
          deployment,
          execution,
          State.ERROR,
          "plan interrupted: " + StatusTexts.headline(String.valueOf(e.getMessage())));
      ports.tokens().fail(taskToken, DeployFlow.TRANSIENT_ERROR, String.valueOf(e.getMessage()));
      return 1;
    }
  }

  /**
   * Applies the approved plan; a non-zero exit fails the flow's Apply. When an earlier Apply task
   * of this execution entered Apply and stopped without an outcome (its container was killed), the
   * flow retries the state and this one finishes that apply instead ({@link
   * TerraRun#finishInterruptedApply}): what is left of the approved changes is applied, anything
   * else fails. An apply that failed is recorded as Failed, so a retry never runs it again.
   */
  public int apply(long executionId) {
    Optional<Execution> found = running(executionId);
    if (found.isEmpty()) {
      log.accept("execution " + executionId + " is not running; nothing applied");
      return 1;
    }
    Execution execution = found.get();
    Deployment deployment = ports.deployments().find(execution.deploymentId()).orElseThrow();
    Optional<String> before = ports.executions().flowState(executionId);
    if (before.equals(Optional.of(FlowState.FAILED.stateName()))) {
      log.accept("[" + execution.unit() + "] its apply failed before; not applied again");
      return 1;
    }
    boolean interrupted = before.equals(Optional.of(FlowState.APPLY.stateName()));
    if (interrupted) {
      ports.resuming().restore(execution);
    }
    ports
        .executions()
        .enterFlowState(
            executionId,
            FlowState.APPLY.stateName(),
            interrupted ? "resumed: the previous Apply task stopped without an outcome" : null,
            clock.instant());
    publish(
        deployment,
        execution,
        State.PENDING,
        interrupted ? "finishing an interrupted apply" : "applying");
    // The flow's Decide chose Apply, but the token that told it so may have been answered by
    // whoever held the right to: the step applies only what the recorded votes approve.
    UnitStep.ApplyOutcome outcome =
        ports
            .unitStep()
            .apply(
                deployment,
                execution,
                interrupted,
                message -> log.accept("[" + execution.unit() + "] " + message));
    if (outcome instanceof UnitStep.Applied applied) {
      String done =
          interrupted
              ? applied.detail()
              : "applied " + StatusTexts.summary(execution.planSummary());
      log.accept("[" + execution.unit() + "] " + done);
      publish(deployment, execution, State.SUCCESS, done);
      return 0;
    }
    // A refused apply ran nothing, so a retry may still apply once the votes allow it; a failed
    // one is recorded as Failed, so that a retry never runs it again.
    boolean refused = outcome instanceof UnitStep.Refused;
    if (!refused) {
      ports
          .executions()
          .enterFlowState(
              executionId, FlowState.FAILED.stateName(), outcome.why(), clock.instant());
    }
    String what = refused ? "apply refused: " : "apply failed: ";
    log.accept("[" + execution.unit() + "] " + what + outcome.why());
    publish(deployment, execution, State.FAILURE, what + StatusTexts.headline(outcome.why()));
    return 1;
  }

  private Optional<Execution> running(long executionId) {
    return ports.executions().find(executionId).filter(e -> e.status() == ExecutionStatus.RUNNING);
  }

  /** {@code livegate/deploy: <unit>} on the merge commit. */
  private void publish(Deployment deployment, Execution execution, State state, String text) {
    ports
        .statuses()
        .publish(
            deployment.pullRequest().repository(),
            deployment.pullRequest().mergeCommit(),
            StatusTexts.deployContext(execution.unit(), execution.rollback()),
            state,
            text,
            ports.logUrl());
  }
}
