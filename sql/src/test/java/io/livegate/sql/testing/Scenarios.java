package io.livegate.sql.testing;

import io.livegate.core.ProgressListener;
import io.livegate.core.account.Accounts;
import io.livegate.core.deploy.CreateDeploymentCommand;
import io.livegate.core.deploy.MergedPullRequest;
import io.livegate.core.runner.RunnerArgv;
import io.livegate.core.stack.DeployStack;
import io.livegate.scan.GraphScan;
import io.livegate.scan.ScanCommand;
import io.livegate.scan.testing.ReferenceScenario;
import io.livegate.scan.testing.TestRepo;
import java.nio.file.Path;
import java.util.function.Consumer;

/** Deploy stacks from real scans of real git repositories, ready to be queued. */
public final class Scenarios {
  public static final String REPOSITORY = "acme/infrastructure-live";

  private Scenarios() {}

  /** The reference scenario at base, then {@code change} committed as a merge: its deploy stack. */
  public static CreateDeploymentCommand reference(
      Path dir, int prNumber, Consumer<TestRepo> change) {
    try (TestRepo repo = ReferenceScenario.write(TestRepo.create(dir))) {
      String base = repo.commit("reference scenario");
      change.accept(repo);
      String head = repo.commit("pull request #" + prNumber);
      DeployStack stack =
          new GraphScan(ProgressListener.silent())
              .run(
                  ScanCommand.builder(dir, ReferenceScenario.accounts())
                      .base(base)
                      .head(head)
                      .parallelism(2)
                      .build());
      return command(stack, ReferenceScenario.accounts(), prNumber, base);
    }
  }

  public static CreateDeploymentCommand command(
      DeployStack stack, Accounts accounts, int prNumber, String base) {
    MergedPullRequest pr =
        MergedPullRequest.withExactBase(
            REPOSITORY, prNumber, "main", "feature-" + prNumber, base, stack.head());
    return new CreateDeploymentCommand(pr, stack, accounts, RunnerArgv.TERRAFORM);
  }
}
