package io.livegate.cli;

import io.livegate.cli.local.LocalWiring;
import io.livegate.cli.local.StateDirectoryLock;
import io.livegate.cli.local.SummaryTable;
import io.livegate.core.deploy.Deployment;
import io.livegate.core.vote.DeploymentView;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code livegate status}: the local deployments and their executions. */
@Command(
    name = "status",
    mixinStandardHelpOptions = true,
    description = "Shows the deployments in the state directory and their executions.")
final class StatusCli implements Callable<Integer> {
  @Spec private CommandSpec spec;

  @Option(
      names = "--state-dir",
      paramLabel = "DIR",
      description = "The state directory (default: ~/.livegate).")
  private Path stateDir;

  @Override
  public Integer call() {
    Path directory =
        stateDir != null ? stateDir : Path.of(System.getProperty("user.home"), ".livegate");
    PrintWriter out = spec.commandLine().getOut();
    try (LocalWiring wiring = openUnlessBusy(directory, out)) {
      if (wiring == null) {
        return 0;
      }
      List<Deployment> deployments = wiring.deployments.all();
      if (deployments.isEmpty()) {
        out.println("no deployments in " + directory);
      }
      for (Deployment deployment : deployments) {
        out.printf(
            "deployment %d  %-15s  %s  %s..%s%n",
            deployment.id(),
            deployment.status().id(),
            deployment.pullRequest().repository(),
            shortSha(deployment.pullRequest().baseCommit()),
            shortSha(deployment.pullRequest().mergeCommit()));
        out.print(
            SummaryTable.render(
                    DeploymentView.of(
                        deployment.id(), wiring.deployments, wiring.executions, wiring.votes))
                .lines()
                .map(line -> "  " + line + "\n")
                .reduce("", String::concat));
        out.println();
      }
      return 0;
    }
  }

  /**
   * The state directory's wiring, or null when a running deployment holds it: then its status page
   * is where to watch, and this says so.
   */
  private static LocalWiring openUnlessBusy(Path directory, PrintWriter out) {
    try {
      return new LocalWiring(directory);
    } catch (StateDirectoryLock.Busy busy) {
      out.println("a livegate run is using " + directory + " (" + busy.holder() + ")");
      out.println("run livegate status again when it has finished");
      return null;
    }
  }

  private static String shortSha(String sha) {
    return sha.substring(0, Math.min(12, sha.length()));
  }
}
