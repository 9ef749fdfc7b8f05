package io.livegate.tasks;

import io.livegate.aws.PlanArtifacts;
import io.livegate.aws.SfnTaskTokens;
import io.livegate.core.LivegateException;
import io.livegate.core.deploy.CommitStatusPublisher;
import io.livegate.core.deploy.CommitStatusPublisher.State;
import io.livegate.core.deploy.Deployment;
import io.livegate.core.deploy.DeploymentStore;
import io.livegate.core.deploy.Execution;
import io.livegate.core.deploy.ExecutionStatus;
import io.livegate.core.deploy.ExecutionStore;
import io.livegate.core.deploy.StatusTexts;
import io.livegate.core.flow.FlowState;
import io.livegate.core.runner.CommandRunner;
import io.livegate.core.runner.RunnerArgv;
import io.livegate.core.runner.Sandbox;
import io.livegate.core.vote.ApplyGate;
import io.livegate.core.vote.VoteStore;
import io.livegate.process.TerraRun;
import io.livegate.scan.repo.Checkout;
import io.livegate.statemachine.DeployFlow;
import io.livegate.statemachine.PlanResult;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;

/**
 * terra-run: one execution's Plan or Apply inside the deploy flow. The execution record in the
 * metadb says what to run (its argv commands, roles and the merge commit); the flow passes only its
 * id, and for Plan the task token to answer.
 */
public final class TerraRunJob {
  private final DeploymentStore deployments;
  private final ExecutionStore executions;
  private final VoteStore votes;
  private final PlanArtifacts artifacts;
  private final SfnTaskTokens tokens;
  private final Checkout checkout;
  private final CommitStatusPublisher statuses;
  private final CommandRunner runner;
  private final RunnerArgv kind;
  private final Sandbox sandbox;
  private final Path workspace;
  private final Map<String, String> environment;
  private final String logUrl;
  private final Consumer<String> log;
  private final Clock clock;

  /**
   * @param statuses where {@code livegate/deploy: <unit>} goes at each step, with the log link
   * @param workspace where the repository is checked out; it persists between Plan and Apply only
   *     when the runtime keeps it (tests do; a task gets a fresh one, with state in its backend)
   * @param sandbox how terraform and terragrunt are kept from the task's own rights (on ECS: as an
   *     unprivileged user, {@link io.livegate.process.SetprivSandbox})
   * @param environment the environment of terraform or terragrunt
   */
  public TerraRunJob(
      DeploymentStore deployments,
      ExecutionStore executions,
      VoteStore votes,
      PlanArtifacts artifacts,
      SfnTaskTokens tokens,
      Checkout checkout,
      CommitStatusPublisher statuses,
      CommandRunner runner,
      RunnerArgv kind,
      Sandbox sandbox,
      Path workspace,
      Map<String, String> environment,
      String logUrl,
      Consumer<String> log,
      Clock clock) {
    this.deployments = deployments;
    this.executions = executions;
    this.votes = votes;
    this.artifacts = artifacts;
    this.tokens = tokens;
    this.checkout = checkout;
    this.statuses = statuses;
    this.runner = runner;
    this.kind = kind;
    this.sandbox = sandbox;
    this.workspace = workspace;
    this.environment = Map.copyOf(environment);
    this.logUrl = logUrl;
    this.log = log;
    this.clock = clock;
  }

  /** Plans and answers the task token; the exit code is for the log, the token is the result. */
  public int plan(long executionId, String taskToken) {
    Optional<Execution> found = running(executionId);
    if (found.isEmpty()) {
      tokens.fail(taskToken, "livegate.NotRunning", "execution " + executionId + " is not running");
      return 1;
    }
    Execution execution = found.get();
    Deployment deployment = deployments.find(execution.deploymentId()).orElseThrow();
    try {
      executions.enterFlowState(executionId, FlowState.PLAN.stateName(), null, clock.instant());
      publish(deployment, execution, State.PENDING, "planning");
      TerraRun terraRun = terraRun(deployment, execution);
      TerraRun.Step<TerraRun.Plan> planned = terraRun.plan(execution);
      if (planned.error() != null) {
        log.accept("[" + execution.unit() + "] plan failed: " + planned.error());
        publish(
            deployment,
            execution,
            State.FAILURE,
            "plan failed: " + StatusTexts.headline(planned.error()));
        tokens.fail(taskToken, DeployFlow.PLAN_FAILED_ERROR, planned.error());
        return 1;
      }
      TerraRun.Plan plan = planned.value();
      String key = PlanArtifacts.key(execution.deploymentId(), execution.name());
      artifacts.upload(key, plan.file(), plan.text());
      executions.recordPlan(executionId, key, plan.sha256(), plan.summary());
      tokens.succeed(
          taskToken, new PlanResult(key, plan.sha256(), plan.summary(), logUrl).toJson());
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
      tokens.fail(taskToken, DeployFlow.TRANSIENT_ERROR, String.valueOf(e.getMessage()));
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
    if (execution.planArtifact() == null || execution.planSha256() == null) {
      log.accept("[" + execution.unit() + "] has no recorded plan; nothing applied");
      return 1;
    }
    Deployment deployment = deployments.find(execution.deploymentId()).orElseThrow();
    // The flow's Decide chose Apply, but the token that told it so may have been answered by
    // whoever held the right to: the recorded votes decide.
    Optional<String> refusal = ApplyGate.refusal(execution, votes.votes(executionId));
    if (refusal.isPresent()) {
      log.accept("[" + execution.unit() + "] " + refusal.get());
      publish(
          deployment,
          execution,
          State.FAILURE,
          "apply refused: " + StatusTexts.headline(refusal.get()));
      return 1;
    }
    Optional<String> before = executions.flowState(executionId);
    if (before.equals(Optional.of(FlowState.FAILED.stateName()))) {
      log.accept("[" + execution.unit() + "] its apply failed before; not applied again");
      return 1;
    }
    boolean interrupted = before.equals(Optional.of(FlowState.APPLY.stateName()));
    executions.enterFlowState(
        executionId,
        FlowState.APPLY.stateName(),
        interrupted ? "resumed: the previous Apply task stopped without an outcome" : null,
        clock.instant());
    publish(
        deployment,
        execution,
        State.PENDING,
        interrupted ? "finishing an interrupted apply" : "applying");
    TerraRun terraRun = terraRun(deployment, execution);
    artifacts.download(execution.planArtifact(), terraRun.planFile(execution));
    Set<String> newProviders = Set.copyOf(execution.planSummary().newProviders());
    TerraRun.Step<List<String>> applied;
    String done;
    if (interrupted) {
      TerraRun.Step<TerraRun.Resumed> resumed =
          terraRun.finishInterruptedApply(execution, newProviders);
      applied =
          resumed.error() == null
              ? new TerraRun.Step<>(resumed.value().newResources(), null)
              : new TerraRun.Step<>(null, resumed.error());
      done = resumed.error() == null ? resumed.value().detail() : null;
    } else {
      applied = terraRun.apply(execution, newProviders);
      done = "applied " + StatusTexts.summary(execution.planSummary());
    }
    if (applied.error() == null) {
      executions.recordNewResources(executionId, applied.value());
      log.accept("[" + execution.unit() + "] " + done);
      publish(deployment, execution, State.SUCCESS, done);
      return 0;
    }
    // What the apply created before it failed is in the state: recorded, the rollback destroys it.
    executions.recordNewResources(executionId, terraRun.newResources(execution, newProviders));
    executions.enterFlowState(
        executionId, FlowState.FAILED.stateName(), applied.error(), clock.instant());
    log.accept("[" + execution.unit() + "] apply failed: " + applied.error());
    publish(
        deployment,
        execution,
        State.FAILURE,
        "apply failed: " + StatusTexts.headline(applied.error()));
    return 1;
  }

  private Optional<Execution> running(long executionId) {
    return executions.find(executionId).filter(e -> e.status() == ExecutionStatus.RUNNING);
  }

  /** {@code livegate/deploy: <unit>} on the merge commit. */
  private void publish(Deployment deployment, Execution execution, State state, String text) {
    statuses.publish(
        deployment.pullRequest().repository(),
        deployment.pullRequest().mergeCommit(),
        StatusTexts.deployContext(execution.unit(), execution.rollback()),
        state,
        text,
        logUrl);
  }

  private TerraRun terraRun(Deployment deployment, Execution execution) {
    // The destroy of a deleted unit runs where the unit still is: at the base commit.
    Path root =
        checkout.at(
            workspace.resolve("repository"),
            execution.destroy()
                ? deployment.pullRequest().baseCommit()
                : deployment.pullRequest().mergeCommit());
    Path plans = workspace.resolve("plans");
    try {
      Files.createDirectories(plans);
    } catch (IOException e) {
      throw new LivegateException("cannot create " + plans + ": " + e.getMessage(), e);
    }
    return new TerraRun(runner, kind, root, plans, environment, sandbox);
  }
}
