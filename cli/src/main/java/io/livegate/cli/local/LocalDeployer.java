package io.livegate.cli.local;

import io.livegate.core.DaemonThreads;
import io.livegate.core.LivegateException;
import io.livegate.core.Printable;
import io.livegate.core.admin.Console;
import io.livegate.core.deploy.AdvanceDeployment;
import io.livegate.core.deploy.Deployment;
import io.livegate.core.deploy.DeploymentStatus;
import io.livegate.core.deploy.DeploymentStore;
import io.livegate.core.deploy.Execution;
import io.livegate.core.deploy.ExecutionStatus;
import io.livegate.core.deploy.ExecutionStore;
import io.livegate.core.deploy.MergedPullRequest;
import io.livegate.core.deploy.PlanSummary;
import io.livegate.core.flow.FlowState;
import io.livegate.core.runner.ResourceShortage;
import io.livegate.core.unit.UnitRunner;
import io.livegate.core.unit.UnitStep;
import io.livegate.core.vote.CastVote;
import io.livegate.core.vote.Decision;
import io.livegate.core.vote.Vote;
import io.livegate.core.vote.VoteMail;
import io.livegate.core.vote.VoteResult;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletionService;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorCompletionService;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import java.util.function.Predicate;

/**
 * The in-process executor of the deploy flow: what Step Functions does on AWS. It runs each
 * released execution's flow (Plan, RequestApproval, Decide, Apply) on a bounded pool and reports
 * each flow's end to the engine ({@link AdvanceDeployment#flowEnded}, as the trigger does on AWS),
 * which records the outcome, releases what became ready and, at the deployment's end, hands the
 * lock on.
 *
 * <p>Every step is recorded as the execution's flow state before it starts, so a run killed at any
 * moment resumes where it was. An apply interrupted mid-way is never applied twice: terraform
 * outlives the run that started it, the resumed run waits for it, plans again, and applies only
 * what the voters approved and is left ({@link UnitStep#apply}). A flow resumed while it waits for
 * votes mails new links, because the old ones point at the server of the run that died.
 */
public final class LocalDeployer {
  private static final Duration DECISION_POLL = Duration.ofMillis(200);

  /**
   * @param voteTimeout how long a vote may take before the execution counts as rejected
   * @param autoApprove approve on behalf of the voters right after the links are sent
   * @param skipEmpty a plan with no changes succeeds without a vote or an apply
   * @param voterAtTerminal the voters whose channel is this terminal, so whose links the log shows;
   *     every other voter's links go only to their mail: whoever reads a log must not get the
   *     quorum from it
   */
  public record Settings(
      int parallelism,
      boolean autoApprove,
      boolean skipEmpty,
      Duration voteTimeout,
      Predicate<String> voterAtTerminal) {
    public Settings {
      if (parallelism < 1) {
        throw new LivegateException("--parallelism must be at least 1");
      }
    }

    /** Settings under which no voter's links are logged. */
    public Settings(int parallelism, boolean autoApprove, boolean skipEmpty, Duration voteTimeout) {
      this(parallelism, autoApprove, skipEmpty, voteTimeout, voter -> false);
    }
  }

  /**
   * What the executor works with.
   *
   * @param unitStep plans and applies each unit, as the terra-run task does on AWS
   * @param server the vote server whose links the voters get
   * @param drain says when a signal stops the run
   */
  public record Ports(
      DeploymentStore deployments,
      ExecutionStore executions,
      AdvanceDeployment advance,
      CastVote castVote,
      UnitStep unitStep,
      Outbox outbox,
      VoteServer server,
      Drain drain) {}

  private final Ports ports;
  private final Settings settings;
  private final Consumer<String> log;
  private final Clock clock;

  /** The first resource that ran out in this run: it stops the run, leaving it resumable. */
  private final AtomicReference<ResourceShortage> shortage = new AtomicReference<>();

  public LocalDeployer(Ports ports, Settings settings, Consumer<String> log, Clock clock) {
    this.ports = ports;
    this.settings = settings;
    this.log = log;
    this.clock = clock;
  }

  /** Runs (or resumes) the deployment until it is over, and returns its final status. */
  public DeploymentStatus run(long deploymentId) {
    ExecutorService pool = DaemonThreads.pool(settings.parallelism(), "livegate-flow");
    CompletionService<Finished> completions = new ExecutorCompletionService<>(pool);
    Set<Long> inFlight = new HashSet<>();
    try {
      for (Execution interrupted : ports.executions().list(deploymentId)) {
        if (interrupted.status() == ExecutionStatus.RUNNING) {
          boolean begun = ports.executions().flowState(interrupted.id()).isPresent();
          log(interrupted, begun ? "resuming after an interruption" : "released");
          inFlight.add(interrupted.id());
          completions.submit(() -> flow(interrupted, true));
        }
      }
      submit(ports.advance().created(deploymentId), deploymentId, completions, inFlight);
      while (true) {
        if (inFlight.isEmpty()) {
          Deployment deployment = ports.deployments().find(deploymentId).orElseThrow();
          if (deployment.status().isFinished()
              || deployment.status() == DeploymentStatus.ROLLBACK_FAILED) {
            return deployment.status();
          }
          ResourceShortage ranOut = shortage.get();
          if (ranOut != null) {
            throw new ResourcesRanOut(ranOut);
          }
          if (ports.drain().draining()) {
            throw new LivegateException("stopped; what finished is recorded.");
          }
          throw new LivegateException(
              "deployment "
                  + deploymentId
                  + " is "
                  + deployment.status().id()
                  + " but nothing is running or ready; see livegate status");
        }
        Finished finished = completions.take().get();
        inFlight.remove(finished.execution().id());
        if (finished.outcome() != null) {
          AdvanceDeployment.Advanced advanced;
          try {
            advanced = ports.advance().flowEnded(finished.execution().name(), finished.outcome());
          } catch (RuntimeException e) {
            // The flow's last state is recorded, so a resumed run records its outcome again.
            if (!stopsFor(finished.execution(), e.getMessage(), "its outcome is not recorded")) {
              throw e;
            }
            continue;
          }
          log(finished.execution(), advanced.message());
          advanced
              .stopped()
              .forEach(stopped -> log(stopped, "aborted; its flow stops at its next step"));
          submit(advanced, deploymentId, completions, inFlight);
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new LivegateException("interrupted; what finished is recorded.", e);
    } catch (ExecutionException e) {
      throw new LivegateException("a deploy flow crashed: " + e.getCause(), e.getCause());
    } finally {
      pool.shutdownNow();
    }
  }

  /**
   * Runs the flows that the engine started for this deployment. Those of a deployment it started
   * next are the runtime's to run: {@code serve}'s pipeline, or a later {@code resume}.
   */
  private void submit(
      AdvanceDeployment.Advanced advanced,
      long deploymentId,
      CompletionService<Finished> completions,
      Set<Long> inFlight) {
    if (stopping()) {
      return;
    }
    for (Execution started : advanced.started()) {
      if (started.deploymentId() == deploymentId && inFlight.add(started.id())) {
        log(started, "released");
        completions.submit(() -> flow(started, false));
      }
    }
  }

  /** A flow's end: the outcome to record, or null when the execution was aborted meanwhile. */
  private record Finished(Execution execution, ExecutionStatus outcome) {}

  private Finished flow(Execution execution, boolean resuming) {
    String resumedAt =
        resuming
            ? ports.executions().flowState(execution.id()).orElse(FlowState.PLAN.stateName())
            : null;
    FlowState state = resumedAt == null ? FlowState.PLAN : stateNamed(resumedAt);
    try {
      while (!state.isFinal()) {
        Optional<FlowState> next =
            step(execution, state, resuming && state.stateName().equals(resumedAt));
        if (next.isEmpty()) {
          return new Finished(execution, null);
        }
        state = next.get();
      }
      return new Finished(
          execution,
          switch (state) {
            case SUCCEEDED -> ExecutionStatus.SUCCEEDED;
            case REJECTED -> ExecutionStatus.REJECTED;
            default -> ExecutionStatus.FAILED;
          });
    } catch (RuntimeException e) {
      return fail(execution, "livegate error: " + e.getMessage()) == null
          ? new Finished(execution, null)
          : new Finished(execution, ExecutionStatus.FAILED);
    }
  }

  /**
   * Runs one state and says which comes next; empty when the execution is no longer running, or
   * when a signal stops the run (the execution stays at its last recorded state for resume).
   */
  private Optional<FlowState> step(Execution execution, FlowState state, boolean interruptedHere) {
    if (stopping() || !enter(execution, state, interruptedHere ? "resumed" : null)) {
      return Optional.empty();
    }
    return Optional.ofNullable(
        switch (state) {
          case PLAN -> plan(execution);
          case REQUEST_APPROVAL -> requestApproval(execution);
          case DECIDE -> decide(execution, interruptedHere);
          case APPLY -> apply(execution, interruptedHere);
          default -> throw new IllegalStateException("no step for " + state);
        });
  }

  private FlowState plan(Execution execution) {
    UnitRunner.Step<UnitStep.Planned> planned =
        ports.unitStep().plan(deploymentOf(execution), execution);
    if (planned.error() != null) {
      return fail(execution, planned.error());
    }
    PlanSummary summary = planned.value().plan().summary();
    log(
        execution,
        "planned: "
            + summary.counts()
            + (summary.newProviders().isEmpty()
                ? ""
                : ", new providers " + String.join(", ", summary.newProviders())));
    return FlowState.REQUEST_APPROVAL;
  }

  /** Mails the links, unless Decide will skip the vote of an empty plan (--skip-empty). */
  private FlowState requestApproval(Execution execution) {
    Execution planned = ports.executions().find(execution.id()).orElseThrow();
    if (!skipsVote(planned)) {
      requestVotes(planned);
    }
    return FlowState.DECIDE;
  }

  private boolean skipsVote(Execution planned) {
    return settings.skipEmpty() && !planned.planSummary().hasChanges();
  }

  /** Mails each voter their links and, with --auto-approve, approves on their behalf. */
  private void requestVotes(Execution planned) {
    Instant expires = clock.instant().plus(settings.voteTimeout());
    MergedPullRequest deployed =
        ports.deployments().find(planned.deploymentId()).map(Deployment::pullRequest).orElse(null);
    for (String voter : planned.spec().voters()) {
      String approve = ports.server().link(planned.id(), voter, Vote.Choice.APPROVE, expires);
      String reject = ports.server().link(planned.id(), voter, Vote.Choice.REJECT, expires);
      try {
        ports
            .outbox()
            .voteRequest(
                planned,
                voter,
                VoteMail.of(
                    planned,
                    planned.planSummary(),
                    deployed,
                    "",
                    ports.server().baseUrl() + Console.unitPath(planned),
                    approve,
                    reject));
      } catch (Outbox.NotRelayed e) {
        // The other voters are still mailed, and this one's links wait in the outbox file.
        log(planned, "warning: " + e.getMessage());
      }
      if (settings.voterAtTerminal().test(voter)) {
        log(planned, "vote link for " + voter + ": approve " + approve);
      }
    }
    int voters = planned.spec().voters().size();
    log(planned, "vote requested from " + voters + (voters == 1 ? " voter" : " voters"));
    if (settings.autoApprove()) {
      for (String voter : planned.spec().voters()) {
        VoteResult result = ports.castVote().cast(planned.id(), voter, Vote.Choice.APPROVE);
        if (!(result instanceof VoteResult.Recorded recorded) || recorded.decided()) {
          break;
        }
      }
      log(planned, "auto-approved");
    }
  }

  private FlowState decide(Execution execution, boolean interruptedHere) {
    Execution waiting = ports.executions().find(execution.id()).orElseThrow();
    if (skipsVote(waiting)) {
      enter(execution, FlowState.SUCCEEDED, "no changes; skipped vote and apply (--skip-empty)");
      return FlowState.SUCCEEDED;
    }
    if (interruptedHere && waiting.decision() == null) {
      // The links mailed before the interruption point at the server of the run that died (with
      // --port 0, a port nobody listens on now), and that run's --auto-approve is not this one's.
      requestVotes(waiting);
    }
    Instant deadline = clock.instant().plus(settings.voteTimeout());
    while (true) {
      if (stopping()) {
        return null;
      }
      Execution current = ports.executions().find(execution.id()).orElseThrow();
      if (current.status() != ExecutionStatus.RUNNING) {
        return FlowState.REJECTED;
      }
      if (current.decision() != null) {
        boolean approved = Decision.fromId(current.decision()) == Decision.APPROVED;
        log(execution, approved ? "approved" : "rejected by vote");
        if (!approved) {
          enter(execution, FlowState.REJECTED, "rejected by vote");
        }
        return approved ? FlowState.APPLY : FlowState.REJECTED;
      }
      if (clock.instant().isAfter(deadline)) {
        enter(execution, FlowState.REJECTED, "no decision within " + settings.voteTimeout());
        return FlowState.REJECTED;
      }
      try {
        Thread.sleep(DECISION_POLL.toMillis());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new LivegateException("interrupted while waiting for votes", e);
      }
    }
  }

  /**
   * Applies the approved plan; resumed here, finishes the apply that a killed run started: it may
   * still be running (terraform outlives livegate), so the step waits for it, plans again and
   * applies only what the voters approved and is left.
   */
  private FlowState apply(Execution execution, boolean interruptedHere) {
    Execution approved = ports.executions().find(execution.id()).orElseThrow();
    UnitStep.ApplyOutcome outcome =
        ports
            .unitStep()
            .apply(
                deploymentOf(approved),
                approved,
                interruptedHere,
                message -> log(approved, message));
    if (outcome instanceof UnitStep.Applied applied) {
      return succeeded(approved, applied.newResources(), applied.detail());
    }
    return fail(approved, outcome.why());
  }

  private Deployment deploymentOf(Execution execution) {
    return ports.deployments().find(execution.deploymentId()).orElseThrow();
  }

  private FlowState succeeded(Execution execution, List<String> newResources, String detail) {
    enter(
        execution,
        FlowState.SUCCEEDED,
        detail
            + (newResources.isEmpty() ? "" : "; new resources " + String.join(", ", newResources)));
    log(execution, detail);
    return FlowState.SUCCEEDED;
  }

  /**
   * Fails the execution; null instead when a signal interrupted its process, or when a resource of
   * the machine ran out ({@link ResourceShortage}), so that it stays unfinished at its recorded
   * state for resume.
   */
  private FlowState fail(Execution execution, String error) {
    if (ports.drain().interrupted()) {
      log(execution, "interrupted: " + error);
      return null;
    }
    if (stopsFor(execution, error, "it stays at its step for resume")) {
      return null;
    }
    log(execution, "failed: " + error);
    enter(execution, FlowState.FAILED, error);
    return FlowState.FAILED;
  }

  /**
   * Whether {@code error} says a resource of the machine ran out; if so, the run stops as a drain
   * does (no unit starts another step) and says {@code consequence} for {@code execution}.
   */
  private boolean stopsFor(Execution execution, String error, String consequence) {
    Optional<ResourceShortage> ranOut = ResourceShortage.in(error);
    if (ranOut.isEmpty()) {
      return false;
    }
    shortage.compareAndSet(null, ranOut.get());
    log(execution, "stopped: " + ranOut.get().describe() + "; " + consequence);
    return true;
  }

  /** Whether no unit starts another step: a signal came, or a resource ran out. */
  private boolean stopping() {
    return ports.drain().draining() || shortage.get() != null;
  }

  private boolean enter(Execution execution, FlowState state, String detail) {
    boolean entered =
        ports
            .executions()
            .enterFlowState(execution.id(), state.stateName(), detail, clock.instant());
    if (entered && !state.isFinal()) {
      log(execution, state.stateName());
    }
    return entered;
  }

  private static FlowState stateNamed(String name) {
    for (FlowState state : FlowState.values()) {
      if (state.stateName().equals(name)) {
        return state;
      }
    }
    throw new LivegateException("unknown flow state '" + name + "' in the metadb");
  }

  private void log(Execution execution, String message) {
    // the unit path is the repository's: a newline in it would forge a line of this log; so would
    // one in terraform's error inside a failure's message, whose lines go indented
    log.accept(
        "["
            + Printable.escape(execution.unit())
            + (execution.rollback() ? " rollback" : "")
            + "] "
            + Printable.continued(message));
  }
}
