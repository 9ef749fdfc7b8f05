package io.livegate.cli;

import io.livegate.cli.local.LocalWiring;
import io.livegate.cli.local.StateDirectoryLock;
import io.livegate.core.deploy.AdvanceDeployment;
import io.livegate.core.deploy.Deployment;
import io.livegate.core.deploy.DeploymentStatus;
import io.livegate.core.deploy.Execution;
import io.livegate.core.deploy.ExecutionStatus;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code livegate admin}: the operator's commands for a stuck queue, on the local state directory
 * (docs/operations.md). Each says what it did, and exits 1 when it did nothing.
 */
@Command(
    name = "admin",
    mixinStandardHelpOptions = true,
    description = "Operator commands for the merge queue and lock of the local state directory.",
    subcommands = {
      AdminCli.Queue.class,
      AdminCli.Abort.class,
      AdminCli.ReleaseLock.class,
      AdminCli.ResolveRollback.class
    })
final class AdminCli {
  /** What every admin command shares: the state directory, opened when no run is using it. */
  abstract static class StateCommand implements Callable<Integer> {
    @Spec CommandSpec spec;

    @Option(
        names = "--state-dir",
        paramLabel = "DIR",
        description = "The state directory (default: ~/.livegate).")
    Path stateDir;

    @Override
    public Integer call() {
      Path directory =
          stateDir != null ? stateDir : Path.of(System.getProperty("user.home"), ".livegate");
      PrintWriter out = spec.commandLine().getOut();
      try (LocalWiring wiring = new LocalWiring(directory)) {
        return run(wiring, out);
      } catch (StateDirectoryLock.Busy busy) {
        spec.commandLine()
            .getErr()
            .println(
                "a livegate run is using "
                    + directory
                    + " ("
                    + busy.holder()
                    + "); stop it, then run this again");
        return 1;
      }
    }

    abstract int run(LocalWiring wiring, PrintWriter out);
  }

  @Command(
      name = "queue",
      mixinStandardHelpOptions = true,
      description = "What holds each repository's merge lock, and what waits behind it.")
  static final class Queue extends StateCommand {
    @Override
    int run(LocalWiring wiring, PrintWriter out) {
      Map<String, List<Deployment>> byRepository = new LinkedHashMap<>();
      for (Deployment deployment : wiring.deployments.all()) {
        byRepository
            .computeIfAbsent(deployment.pullRequest().repository(), r -> new ArrayList<>())
            .add(deployment);
      }
      if (byRepository.isEmpty()) {
        out.println("no deployments");
      }
      byRepository.forEach(
          (repository, deployments) -> {
            Optional<Deployment> holder = wiring.deployments.lockHolder(repository);
            out.println(
                repository
                    + ": "
                    + holder.map(held -> holds(wiring, held)).orElse("the lock is free"));
            deployments.stream()
                .filter(deployment -> deployment.status() == DeploymentStatus.QUEUED)
                .forEach(
                    waiting ->
                        out.println(
                            "  waiting: deployment "
                                + waiting.id()
                                + " of pull request #"
                                + waiting.pullRequest().number()
                                + " (merge "
                                + shortSha(waiting.pullRequest().mergeCommit())
                                + ")"));
          });
      return 0;
    }

    private static String holds(LocalWiring wiring, Deployment holder) {
      String held =
          "deployment "
              + holder.id()
              + " of pull request #"
              + holder.pullRequest().number()
              + " holds the lock ("
              + holder.status().id()
              + ")";
      if (holder.status() == DeploymentStatus.ROLLBACK_FAILED) {
        List<Long> failed =
            wiring.executions.list(holder.id()).stream()
                .filter(e -> e.rollback() && e.status() == ExecutionStatus.FAILED)
                .map(Execution::id)
                .toList();
        return held
            + ": a rollback failed; repair what it left by hand, then run livegate admin"
            + " resolve-rollback "
            + (failed.isEmpty() ? "EXECUTION" : failed.get(0));
      }
      if (!holder.stackStored()) {
        return held + ": its scan has not stored its units yet; livegate serve scans it";
      }
      return held;
    }
  }

  @Command(
      name = "abort",
      mixinStandardHelpOptions = true,
      description =
          "Abort a running deployment: its waiting and planning units are aborted, it fails and"
              + " the next merge takes the lock. A unit that is applying is left to finish.")
  static final class Abort extends StateCommand {
    @Parameters(index = "0", paramLabel = "DEPLOYMENT")
    long deployment;

    @Option(names = "--reason", defaultValue = "no reason given", paramLabel = "TEXT")
    String reason;

    @Override
    int run(LocalWiring wiring, PrintWriter out) {
      boolean unfinished = !finished(wiring);
      AdvanceDeployment.Advanced done = wiring.operator(out::println).abort(deployment, reason);
      out.println(done.message());
      return unfinished && finished(wiring) ? 0 : 1;
    }

    private boolean finished(LocalWiring wiring) {
      return wiring
          .deployments
          .find(deployment)
          .map(found -> found.status().isFinished())
          .orElse(false);
    }
  }

  @Command(
      name = "release-lock",
      mixinStandardHelpOptions = true,
      description =
          "Release a merge lock that no unfinished deployment holds, and start the next merge.")
  static final class ReleaseLock extends StateCommand {
    @Parameters(index = "0", paramLabel = "REPOSITORY")
    String repository;

    @Override
    int run(LocalWiring wiring, PrintWriter out) {
      AdvanceDeployment.Advanced done = wiring.operator(out::println).releaseLock(repository);
      out.println(done.message());
      return done.message().startsWith("released ") ? 0 : 1;
    }
  }

  @Command(
      name = "resolve-rollback",
      mixinStandardHelpOptions = true,
      description =
          "After repairing by hand what a failed rollback left: its deployment fails and the next"
              + " merge takes the lock.")
  static final class ResolveRollback extends StateCommand {
    @Parameters(index = "0", paramLabel = "EXECUTION")
    long execution;

    @Override
    int run(LocalWiring wiring, PrintWriter out) {
      AdvanceDeployment.Advanced done = wiring.operator(out::println).rollbackResolved(execution);
      out.println(done.message());
      return done.message().startsWith("rollback ") ? 0 : 1;
    }
  }

  private static String shortSha(String sha) {
    return sha.substring(0, Math.min(12, sha.length()));
  }
}
