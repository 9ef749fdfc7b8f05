package io.livegate.core.deploy;

import io.livegate.core.LivegateException;
import io.livegate.core.account.Accounts;
import io.livegate.core.runner.RunnerArgv;
import io.livegate.core.stack.DeployStack;
import java.util.Objects;

/** A merged pull request and its scanned deploy stack, to be queued as a deployment. */
public record CreateDeploymentCommand(
    MergedPullRequest pullRequest, DeployStack stack, Accounts accounts, RunnerArgv runner) {
  public CreateDeploymentCommand {
    Objects.requireNonNull(pullRequest, "pullRequest");
    Objects.requireNonNull(stack, "stack");
    Objects.requireNonNull(accounts, "accounts");
    Objects.requireNonNull(runner, "runner");
    if (!stack.head().equals(pullRequest.mergeCommit())) {
      throw new LivegateException(
          "the deploy stack was scanned at "
              + stack.head()
              + ", not at the merge commit "
              + pullRequest.mergeCommit()
              + " of pull request #"
              + pullRequest.number());
    }
  }
}
