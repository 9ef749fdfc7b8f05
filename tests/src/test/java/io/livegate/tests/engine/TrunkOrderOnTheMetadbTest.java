package io.livegate.tests.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.livegate.core.ProgressListener;
import io.livegate.core.account.Accounts;
import io.livegate.core.deploy.AdvanceDeployment;
import io.livegate.core.deploy.Deployment;
import io.livegate.core.deploy.DeploymentStatus;
import io.livegate.core.deploy.Execution;
import io.livegate.core.deploy.ExecutionStatus;
import io.livegate.core.deploy.MergedPullRequest;
import io.livegate.core.runner.RunnerArgv;
import io.livegate.scan.CreateDeployStack;
import io.livegate.scan.GraphScan;
import io.livegate.scan.repo.Checkout;
import io.livegate.scan.testing.TestRepo;
import io.livegate.sql.testing.InMemoryFlowLauncher;
import io.livegate.sql.testing.InMemoryMergeLock;
import io.livegate.sql.testing.RecordingScanLauncher;
import io.livegate.sql.testing.TestEngine;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * create-deploy-stack, as both runtimes run it, keeps the trunk's order on the metadb: a
 * deployment's range starts at the last deployed commit, a merge delivered after a later merge was
 * deployed is covered by that deployment, and a merge whose delivery never came is deployed by the
 * next merge's range.
 */
class TrunkOrderOnTheMetadbTest {
  private static final String REPOSITORY = "acme/live";

  @TempDir Path dir;

  private final TestEngine engine = TestEngine.fresh();
  private final AdvanceDeployment advance =
      engine.advance(
          new InMemoryFlowLauncher(), new RecordingScanLauncher(), new InMemoryMergeLock());

  @Test
  void aLateMergeIsCoveredAndALostOneIsDeployedByTheNextRange() {
    TestRepo repo = TestRepo.create(dir.resolve("live"));
    String empty = repo.commit("empty");
    unit(repo, "app/a", "1");
    unit(repo, "app/b", "1");
    unit(repo, "app/c", "1");
    String first = repo.commit("merge 0: a, b and c");
    unit(repo, "app/a", "2");
    String second = repo.commit("merge 1: a, delivered late");
    unit(repo, "app/b", "2");
    String third = repo.commit("merge 2: b, its delivery lost");
    unit(repo, "app/c", "2");
    String fourth = repo.commit("merge 3: c");

    Deployment zero = deploy(merge(10, first, empty));
    Deployment three = deploy(merge(13, fourth, third));
    Deployment one = deploy(merge(11, second, first));

    assertThat(zero.rangeBase()).isEqualTo(empty);
    assertThat(units(zero)).containsExactly("app/a", "app/b", "app/c");
    assertThat(three.rangeBase()).as("from the last deployed commit").isEqualTo(first);
    assertThat(units(three))
        .as("merge 3's range holds merge 1's and merge 2's units")
        .containsExactly("app/a", "app/b", "app/c");
    assertThat(one.coveredBy()).as("merge 1 came late").isEqualTo(three.id());
    assertThat(units(one)).isEmpty();
    assertThat(List.of(zero, three, one))
        .extracting(deployment -> engine.deployments.find(deployment.id()).orElseThrow().status())
        .containsOnly(DeploymentStatus.SUCCEEDED);
    assertThat(engine.deployments.lastDeployed(REPOSITORY, -1))
        .map(Deployment::id)
        .as("a covered deployment deployed nothing, so it is not the last deployed")
        .contains(three.id());
  }

  /** Queues the merge, runs create-deploy-stack as the runtime does, and runs it to its end. */
  private Deployment deploy(MergedPullRequest merge) {
    long id = engine.deployments.enqueue(merge, Clock.systemUTC().instant()).deployment().id();
    assertThat(engine.deployments.startNext(REPOSITORY, Clock.systemUTC().instant()))
        .map(Deployment::id)
        .contains(id);
    CreateDeployStack create =
        new CreateDeployStack(
            engine.deployments,
            engine.create,
            new CreateDeployStack.Scanning(
                new Checkout(dir.resolve("live").toString(), Optional.empty()),
                dir.resolve("workspace"),
                new GraphScan(ProgressListener.silent())::run,
                Accounts.wholeRepository(),
                RunnerArgv.TERRAFORM),
            new CreateDeployStack.Reporting(
                new CreateDeployStack.Events() {
                  @Override
                  public void deploymentCreated(long deploymentId) {
                    advance.created(deploymentId);
                  }

                  @Override
                  public void scanFailed(long deploymentId, String reason) {
                    throw new AssertionError(reason);
                  }
                },
                (repository, sha, context, state, description, targetUrl) -> {},
                "",
                ProgressListener.silent()),
            Clock.systemUTC());
    assertThat(create.run(merge)).isZero();
    // The flows that the trigger started succeed, wave by wave, as Step Functions reports them.
    List<Execution> running;
    while (!(running = running(id)).isEmpty()) {
      running.forEach(execution -> advance.flowEnded(execution.name(), ExecutionStatus.SUCCEEDED));
    }
    return engine.deployments.find(id).orElseThrow();
  }

  private List<Execution> running(long deploymentId) {
    return engine.executions.list(deploymentId).stream()
        .filter(execution -> execution.status() == ExecutionStatus.RUNNING)
        .toList();
  }

  private List<String> units(Deployment deployment) {
    return engine.executions.list(deployment.id()).stream().map(Execution::unit).sorted().toList();
  }

  /** Pull request {@code number}, squashed into {@code commit} on top of {@code base}. */
  private static MergedPullRequest merge(int number, String commit, String base) {
    return MergedPullRequest.fromGitHub(
        REPOSITORY, number, "main", "feature", base, commit, null, 1);
  }

  private static void unit(TestRepo repo, String unit, String version) {
    repo.write(unit + "/terragrunt.hcl", "inputs = {}\n")
        .write(
            unit + "/main.tf",
            "resource \"terraform_data\" \"unit\" {\n  input = \"" + version + "\"\n}\n");
  }
}
