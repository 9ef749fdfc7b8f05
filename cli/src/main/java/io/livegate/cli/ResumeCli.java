package io.livegate.cli;

import io.livegate.cli.local.LocalWiring;
import io.livegate.cli.local.SmtpRelay;
import io.livegate.cli.local.StateDirectory;
import io.livegate.core.deploy.Deployment;
import io.livegate.core.deploy.DeploymentStatus;
import java.io.PrintWriter;
import java.util.Comparator;
import java.util.HashSet;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/** {@code livegate resume}: finishes the deployments an interrupted run left unfinished. */
@Command(
    name = "resume",
    footerHeading = "%nExamples:%n",
    footer = {
      "  livegate resume --state-dir ~/.livegate --runner terragrunt",
      "  livegate resume --state-dir /tmp/state --runner terraform --auto-approve"
    },
    mixinStandardHelpOptions = true,
    description =
        "Finishes the deployment that an interrupted deploy or demo left running (Ctrl-C, kill -9). Every unit"
            + " continues from its last recorded step; nothing is applied twice.")
final class ResumeCli implements Callable<Integer> {
  @ParentCommand private Livegate livegate;
  @Spec private CommandSpec spec;
  @Mixin private LocalOptions local;

  @Mixin private RunOptions run;

  @Override
  public Integer call() {
    LocalRun.requireTool(run.kind(), livegate.environment());
    // A mistyped --state-dir must not read as "nothing to resume", nor leave a new one behind.
    StateDirectory.requireExisting(local.stateDirectory());
    Optional<SmtpRelay> smtp = local.smtp(livegate.environment());
    try (LocalWiring wiring =
        new LocalWiring(local.stateDirectory(), local.sources::inStateDirectory)) {
      wiring.mailThrough(smtp);
      PrintWriter out = spec.commandLine().getOut();
      Set<Long> resumed = new HashSet<>();
      int exit = 0;
      // Finishing one deployment starts the next queued one, so the list is read again each time.
      for (Optional<Deployment> next = nextUnfinished(wiring, resumed);
          next.isPresent();
          next = nextUnfinished(wiring, resumed)) {
        Deployment deployment = next.get();
        resumed.add(deployment.id());
        out.println(
            "resuming deployment "
                + deployment.id()
                + " of "
                + deployment.pullRequest().repository());
        exit =
            Math.max(
                exit,
                LocalRun.run(
                    wiring,
                    deployment,
                    run.kind(),
                    local,
                    run.autoApprove,
                    LocalRun.LOCAL_OPERATOR::equals,
                    out));
      }
      if (resumed.isEmpty()) {
        out.println(
            "nothing to resume: no deployment in "
                + local.stateDirectory()
                + " is running"
                + heldAfterAFailedRollback(
                    wiring, LocalRun.Commands.of(wiring, run.kind(), run.autoApprove)));
      }
      return exit;
    }
  }

  /**
   * The oldest running deployment this resume has not run yet. A run killed after it queued its
   * deployment and before it took the lock leaves that deployment queued with the lock free, so
   * each repository's queue is advanced first.
   */
  private static Optional<Deployment> nextUnfinished(LocalWiring wiring, Set<Long> resumed) {
    wiring.deployments.all().stream()
        .filter(d -> d.status() == DeploymentStatus.QUEUED)
        .map(d -> d.pullRequest().repository())
        .distinct()
        .forEach(wiring.startNext::startNext);
    return wiring.deployments.all().stream()
        .filter(
            d ->
                d.status() == DeploymentStatus.RUNNING
                    || d.status() == DeploymentStatus.ROLLING_BACK)
        .filter(d -> !resumed.contains(d.id()))
        .min(Comparator.comparingLong(Deployment::id));
  }

  /** What holds the lock when a failed rollback does: the operator's turn, not resume's. */
  private static String heldAfterAFailedRollback(LocalWiring wiring, LocalRun.Commands commands) {
    return wiring.deployments.all().stream()
        .filter(d -> d.status() == DeploymentStatus.ROLLBACK_FAILED)
        .findFirst()
        .map(
            d ->
                "; deployment "
                    + d.id()
                    + " is "
                    + d.status().id()
                    + LocalRun.nextStep(d.status(), commands))
        .orElse("");
  }
}
