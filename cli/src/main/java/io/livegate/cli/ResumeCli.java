package io.livegate.cli;

import io.livegate.cli.local.LocalWiring;
import io.livegate.core.LivegateException;
import io.livegate.core.deploy.Deployment;
import io.livegate.core.deploy.DeploymentStatus;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/** {@code livegate resume}: finishes the deployments an interrupted run left unfinished. */
@Command(
    name = "resume",
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
    try (LocalWiring wiring = new LocalWiring(local.stateDirectory())) {
      List<Deployment> unfinished =
          wiring.deployments.all().stream()
              .filter(
                  d ->
                      d.status() == DeploymentStatus.RUNNING
                          || d.status() == DeploymentStatus.ROLLING_BACK)
              .toList();
      if (unfinished.isEmpty()) {
        throw new LivegateException(
            "nothing to resume: no deployment in " + local.stateDirectory() + " is running");
      }
      int exit = 0;
      for (Deployment deployment : unfinished) {
        spec.commandLine()
            .getOut()
            .println(
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
                    local.failurePolicy,
                    local.settings(run.autoApprove),
                    local.port,
                    spec.commandLine().getOut(),
                    Map.of("TF_IN_AUTOMATION", "1")));
      }
      return exit;
    }
  }
}
