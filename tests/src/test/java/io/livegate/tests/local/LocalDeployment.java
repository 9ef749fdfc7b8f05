package io.livegate.tests.local;

import static org.assertj.core.api.Assertions.assertThat;

import io.livegate.cli.local.LocalDeployer;
import io.livegate.cli.local.LocalWiring;
import io.livegate.cli.local.SentMail;
import io.livegate.cli.local.VoteClient;
import io.livegate.core.account.Accounts;
import io.livegate.core.deploy.CreateDeploymentCommand;
import io.livegate.core.deploy.Deployment;
import io.livegate.core.deploy.DeploymentStatus;
import io.livegate.core.deploy.Execution;
import io.livegate.core.deploy.FailurePolicy;
import io.livegate.core.deploy.MergedPullRequest;
import io.livegate.core.runner.RunnerArgv;
import io.livegate.core.stack.DeployStack;
import io.livegate.core.vote.Vote;
import io.livegate.scan.GraphScan;
import io.livegate.scan.ScanCommand;
import io.livegate.scan.config.AccountsFile;
import io.livegate.tests.scenarios.LiveRepo;
import io.livegate.tests.scenarios.Outcome;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;

/**
 * One deployment through the local runtime, in process: the same scan and create as {@code livegate
 * deploy}, then the cli's executor ({@link LocalDeployer}) with real terraform in the repository,
 * its embedded metadb, its vote server on a free port and its outbox. This harness plays the
 * voters: it reads each vote request from the outbox with a MIME parser and opens and confirms the
 * mailed link over HTTP, as a voter's browser does.
 */
public final class LocalDeployment implements AutoCloseable {
  /**
   * How long the deployment may go without an execution changing its status before the harness
   * calls it stuck. It bounds silence, not the whole run, which on a loaded machine takes several
   * times as long as on a quiet one.
   */
  private static final Duration STUCK = Duration.ofMinutes(5);

  private static final long POLL_MILLIS = 100;

  private final LiveRepo repo;
  private final Accounts accounts;
  private final Duration voteTimeout;
  private final boolean skipEmpty;
  private final LocalWiring wiring;
  private final Set<Path> handled = new HashSet<>();
  private final Set<Long> voted = new HashSet<>();
  private long deploymentId;

  public LocalDeployment(
      Path stateDirectory, LiveRepo repo, Duration voteTimeout, boolean skipEmpty) {
    this.repo = repo;
    this.accounts = AccountsFile.parse("livegate.hcl", repo.accounts());
    this.voteTimeout = voteTimeout;
    this.skipEmpty = skipEmpty;
    this.wiring = new LocalWiring(stateDirectory);
  }

  /**
   * Runs the deployment to its end, voting as {@code votes} says through the mailed links (null for
   * no vote), and answers where it ended.
   */
  public Outcome run(Function<Execution, Vote.Choice> votes) {
    deploymentId = queue();
    wiring.show(deploymentId);
    LocalDeployer deployer =
        wiring.deployer(
            repo.root(),
            RunnerArgv.TERRAFORM,
            FailurePolicy.ABORT_DEPENDENTS,
            new LocalDeployer.Settings(2, false, skipEmpty, voteTimeout),
            0,
            System.out::println,
            Map.of("TF_IN_AUTOMATION", "1"));
    CompletableFuture<DeploymentStatus> run =
        CompletableFuture.supplyAsync(() -> deployer.run(deploymentId));
    Instant progressed = Instant.now();
    Outcome seen = null;
    DeploymentStatus status;
    while (true) {
      vote(votes);
      try {
        status = run.get(POLL_MILLIS, TimeUnit.MILLISECONDS);
        break;
      } catch (TimeoutException stillRunning) {
        Outcome now = Outcome.of(deploymentStatus(), executions());
        if (!now.equals(seen)) {
          seen = now;
          progressed = Instant.now();
        } else if (Instant.now().isAfter(progressed.plus(STUCK))) {
          throw new AssertionError(
              "the local deployment made no progress for " + STUCK + ": " + now);
        }
      } catch (ExecutionException e) {
        throw new AssertionError("the local deployment crashed", e.getCause());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException(e);
      }
    }
    assertThat(status).isEqualTo(deploymentStatus());
    return Outcome.of(status, executions());
  }

  /** What {@code livegate deploy} does before it runs: scan base..head and store the deployment. */
  private long queue() {
    DeployStack stack =
        new GraphScan(message -> {})
            .run(
                ScanCommand.builder(repo.root(), accounts)
                    .base(repo.base())
                    .head(repo.head())
                    .parallelism(2)
                    .build());
    MergedPullRequest merge =
        MergedPullRequest.withExactBase(
            repo.root().toString(), 1, "main", "change", repo.base(), repo.head());
    Deployment deployment =
        wiring
            .create
            .create(new CreateDeploymentCommand(merge, stack, accounts, RunnerArgv.TERRAFORM))
            .deployment();
    assertThat(wiring.deployments.find(deployment.id()).orElseThrow().status())
        .isEqualTo(DeploymentStatus.RUNNING);
    return deployment.id();
  }

  /** Votes once per execution through the first mailed voter's link. */
  private void vote(Function<Execution, Vote.Choice> votes) {
    Path outbox = wiring.state.outbox();
    if (!Files.isDirectory(outbox)) {
      return;
    }
    for (SentMail mail : SentMail.in(outbox)) {
      if (!handled.add(mail.file())) {
        continue;
      }
      String file = mail.file().getFileName().toString();
      Execution execution =
          wiring
              .executions
              .findByName(file.substring(0, file.indexOf("--")))
              .orElseThrow(() -> new AssertionError("no execution mailed as " + file));
      if (!voted.add(execution.id())) {
        continue;
      }
      Vote.Choice choice = votes.apply(execution);
      if (choice == null) {
        continue;
      }
      String link = choice == Vote.Choice.APPROVE ? mail.approveLink() : mail.rejectLink();
      HttpResponse<String> page = VoteClient.open(link);
      assertThat(page.statusCode()).as(page.body()).isEqualTo(200);
      HttpResponse<String> cast = VoteClient.confirm(link);
      assertThat(cast.statusCode()).as(cast.body()).isEqualTo(200);
    }
  }

  public DeploymentStatus deploymentStatus() {
    return wiring.deployments.find(deploymentId).orElseThrow().status();
  }

  public List<Execution> executions() {
    return wiring.executions.list(deploymentId);
  }

  @Override
  public void close() {
    wiring.close();
  }
}
