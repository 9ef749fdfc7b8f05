package io.livegate.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.livegate.cli.local.LocalWiring;
import io.livegate.core.deploy.DeploymentStatus;
import io.livegate.core.deploy.Execution;
import io.livegate.core.deploy.ExecutionStatus;
import io.livegate.core.deploy.MergedPullRequest;
import java.nio.file.Path;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code livegate admin} on a real local state directory: each stuck state from docs/operations.md,
 * shown by {@code queue} and resolved by the command the runbook names.
 */
class AdminCliTest {
  @TempDir Path state;

  private CliRun admin(String... args) {
    String[] all = new String[args.length + 3];
    all[0] = "admin";
    System.arraycopy(args, 0, all, 1, args.length);
    all[args.length + 1] = "--state-dir";
    all[args.length + 2] = state.toString();
    return CliRun.of(all);
  }

  /** A second merge queued behind whatever holds the lock; answers its deployment id. */
  private static long queueSecondMerge(LocalWiring wiring, String repository) {
    String sha = "2".repeat(40);
    return wiring
        .deployments
        .enqueue(
            MergedPullRequest.withExactBase(repository, 2, "main", "pr-2", sha, sha), Instant.now())
        .deployment()
        .id();
  }

  @Test
  void aFailedRollbackHoldsTheLockUntilResolveRollbackHandsItToTheNextMerge() {
    long held;
    long second;
    long rollback;
    String repository;
    try (LocalWiring wiring = new LocalWiring(state)) {
      held = ResumeCliTest.failTheRollback(wiring);
      repository = wiring.deployments.find(held).orElseThrow().pullRequest().repository();
      second = queueSecondMerge(wiring, repository);
      rollback =
          wiring.executions.list(held).stream()
              .filter(e -> e.rollback() && e.status() == ExecutionStatus.FAILED)
              .map(Execution::id)
              .findFirst()
              .orElseThrow();
    }

    CliRun queue = admin("queue");
    assertThat(queue.exitCode()).as(queue.toString()).isZero();
    assertThat(queue.out())
        .isEqualTo(
            repository
                + ": deployment "
                + held
                + " of pull request #1 holds the lock (rollback_failed): a rollback failed;"
                + " repair what it left by hand, then run livegate admin resolve-rollback "
                + rollback
                + "\n  waiting: deployment "
                + second
                + " of pull request #2 (merge 222222222222)\n");

    CliRun wrong = admin("resolve-rollback", Long.toString(rollback + 100));
    assertThat(wrong.exitCode()).isEqualTo(1);
    assertThat(wrong.out()).startsWith("there is no execution ");

    CliRun resolved = admin("resolve-rollback", Long.toString(rollback));
    assertThat(resolved.exitCode()).as(resolved.toString()).isZero();
    assertThat(resolved.out())
        .isEqualTo(
            "deployment "
                + second
                + " holds the lock but was never scanned; livegate serve scans merges\n"
                + "rollback app of deployment "
                + held
                + " resolved by an operator: the deployment failed; started deployment "
                + second
                + "\n");
    try (LocalWiring wiring = new LocalWiring(state)) {
      assertThat(wiring.deployments.find(held).orElseThrow().status())
          .isEqualTo(DeploymentStatus.FAILED);
      assertThat(wiring.deployments.lockHolder(repository).orElseThrow().id()).isEqualTo(second);
    }
  }

  @Test
  void abortFailsARunningDeploymentAndTheNextMergeTakesTheLockWhileAFinishedOneIsRefused() {
    long running;
    long second;
    String repository;
    try (LocalWiring wiring = new LocalWiring(state)) {
      String sha = "1".repeat(40);
      MergedPullRequest first =
          MergedPullRequest.withExactBase("acme/live", 1, "main", "pr-1", sha, sha);
      running = wiring.deployments.enqueue(first, Instant.now()).deployment().id();
      wiring.startNext.startNext("acme/live");
      repository = "acme/live";
      second = queueSecondMerge(wiring, repository);
    }

    CliRun release = admin("release-lock", repository);
    assertThat(release.exitCode()).isEqualTo(1);
    assertThat(release.out())
        .startsWith(
            "deployment "
                + running
                + " (running) holds the lock of acme/live: run livegate admin abort "
                + running);

    CliRun abort = admin("abort", Long.toString(running), "--reason", "its scan never started");
    assertThat(abort.exitCode()).as(abort.toString()).isZero();
    assertThat(abort.out())
        .contains(
            "deployment "
                + running
                + " failed: aborted by an operator: its scan never started; started deployment "
                + second);

    CliRun again = admin("abort", Long.toString(running));
    assertThat(again.exitCode()).isEqualTo(1);
    assertThat(again.out())
        .startsWith(
            "deployment " + running + " is failed; only a running or rolling-back deployment");
  }

  @Test
  void locallyRetryScanScansNothingAndSaysThatServeScansTheDeploymentHoldingTheLock() {
    long stuck;
    try (LocalWiring wiring = new LocalWiring(state)) {
      String sha = "1".repeat(40);
      MergedPullRequest first =
          MergedPullRequest.withExactBase("acme/live", 1, "main", "pr-1", sha, sha);
      stuck = wiring.deployments.enqueue(first, Instant.now()).deployment().id();
      wiring.startNext.startNext("acme/live");
    }

    CliRun queue = admin("queue");
    assertThat(queue.out())
        .startsWith(
            "acme/live: deployment "
                + stuck
                + " of pull request #1 holds the lock (running): its scan has not stored its units"
                + " yet; if no scan runs, start livegate serve: it scans the deployment holding the"
                + " lock when it starts\n");

    CliRun retried = admin("retry-scan", Long.toString(stuck));
    assertThat(retried.exitCode()).as(retried.toString()).isEqualTo(1);
    assertThat(retried.out())
        .isEqualTo(
            "this command cannot scan deployment "
                + stuck
                + ": the state directory holds no repository; start livegate serve: it scans the"
                + " deployment holding the lock when it starts\n");

    CliRun zero = admin("retry-scan", "0");
    assertThat(zero.exitCode()).isEqualTo(1);
    assertThat(zero.err()).contains("deployment must be a positive id, not 0");
  }

  @Test
  void theStateDirectoryAndTheLambdaAreTwoBackendsOfOneCommandNotBoth() {
    CliRun both = admin("queue", "--aws", "--function", "livegate-admin");

    assertThat(both.exitCode()).isEqualTo(2);
    assertThat(both.err())
        .startsWith(
            "livegate admin queue: Error: expected only one match but got [--state-dir=DIR | [--aws")
        .endsWith("\nRun 'livegate admin queue --help' for its options and examples.\n");

    CliRun noFunction = CliRun.of("admin", "queue", "--aws");
    assertThat(noFunction.exitCode()).isEqualTo(2);
    assertThat(noFunction.err()).contains("Missing required argument(s): --function=NAME");
  }
}
