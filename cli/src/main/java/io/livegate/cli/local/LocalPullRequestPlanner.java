package io.livegate.cli.local;

import io.livegate.core.LivegateException;
import io.livegate.core.account.Accounts;
import io.livegate.core.deploy.CommitStatusPublisher;
import io.livegate.core.pr.PlanComments;
import io.livegate.core.pr.PlanPullRequestResult;
import io.livegate.core.pr.PlanUnit;
import io.livegate.core.pr.PlanUnitCommand;
import io.livegate.core.pr.PullRequestHead;
import io.livegate.core.pr.PullRequestPlanner;
import io.livegate.core.runner.RunnerArgv;
import io.livegate.core.runner.Sandbox;
import io.livegate.process.ProcessCommandRunner;
import io.livegate.process.TerraRunUnitPlanner;
import io.livegate.scan.GraphScan;
import io.livegate.scan.PlanPullRequest;
import io.livegate.scan.SandboxedPlan;
import io.livegate.scan.repo.Checkout;
import io.livegate.scan.repo.SourceAccess;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.function.Supplier;
import java.util.stream.Stream;

/**
 * Pull request plans for {@code livegate serve}: the same dispatch and unit plans as the pr-plan
 * tasks, in this process. A dispatch clones or fetches the repository (a URL or a local path) into
 * a directory of its own for the head, scans it, and plans each changed unit with terraform or
 * terragrunt, at most {@link Settings#parallelism()} at once; then the checkout is deleted.
 * Dispatches run one at a time, in the order they were asked for.
 */
public final class LocalPullRequestPlanner implements PullRequestPlanner, AutoCloseable {
  /**
   * @param repositoryUrl what to clone: a URL or a local path
   * @param cloneToken a GitHub token for HTTPS clones, asked for at each clone; empty for none
   * @param parallelism unit plans at once
   * @param planForks whether pull requests from forks are planned
   * @param runnerEnvironment what terraform or terragrunt get in their environment
   * @param sources the remote stack sources' cache, and what their fetch may reach
   */
  public record Settings(
      String repositoryUrl,
      Optional<Supplier<String>> cloneToken,
      Accounts accounts,
      RunnerArgv runner,
      int parallelism,
      boolean planForks,
      Map<String, String> runnerEnvironment,
      SourceAccess sources) {
    public Settings {
      if (parallelism < 1) {
        throw new LivegateException("parallelism must be at least 1, not " + parallelism);
      }
      runnerEnvironment = Map.copyOf(runnerEnvironment);
    }
  }

  private final Path workspace;
  private final Settings settings;
  private final CommitStatusPublisher statuses;
  private final Optional<PlanComments> comments;
  private final Consumer<String> log;
  private final Sandbox sandbox;
  private final ExecutorService dispatches = Executors.newSingleThreadExecutor(daemon("dispatch"));
  private final ExecutorService units;

  /**
   * @param workspace where heads are checked out, e.g. {@link StateDirectory#pullRequests()}
   * @param comments empty when the plan comment is off (or no GitHub token is configured)
   * @param sandbox where terraform or terragrunt run the pull request's code
   */
  public LocalPullRequestPlanner(
      Path workspace,
      Settings settings,
      CommitStatusPublisher statuses,
      Optional<PlanComments> comments,
      Sandbox sandbox,
      Consumer<String> log) {
    this.sandbox = sandbox;
    this.workspace = workspace.toAbsolutePath().normalize();
    this.settings = settings;
    this.statuses = statuses;
    this.comments = comments;
    this.log = log;
    this.units = Executors.newFixedThreadPool(settings.parallelism(), daemon("plan"));
  }

  @Override
  public void requestPlans(PullRequestHead head) {
    plan(head);
  }

  /** Starts planning {@code head}; the future ends when every unit's plan has. */
  public CompletableFuture<PlanPullRequestResult> plan(PullRequestHead head) {
    return CompletableFuture.supplyAsync(() -> dispatch(head), dispatches);
  }

  private PlanPullRequestResult dispatch(PullRequestHead head) {
    Path checkout = workspace.resolve("pr-" + head.number() + "-" + head.headSha());
    Path plans = workspace.resolve("pr-" + head.number() + "-" + head.headSha() + "-plans");
    Checkout git = new Checkout(settings.repositoryUrl(), settings.cloneToken());
    PlanUnit planUnit =
        new PlanUnit(
            // the dispatch has checked the head out; its unit plans only read it
            checkedOut -> checkout,
            new TerraRunUnitPlanner(
                new SandboxedPlan.Tools(
                    new ProcessCommandRunner(),
                    settings.runner(),
                    sandbox,
                    settings.runnerEnvironment()),
                plans,
                settings.sources()),
            settings.accounts(),
            statuses,
            comments,
            "",
            log);
    List<Future<?>> started = new ArrayList<>();
    PlanPullRequest planPullRequest =
        new PlanPullRequest(
            pullRequest ->
                git.at(
                    checkout,
                    pullRequest.headSha(),
                    Optional.of("refs/pull/" + pullRequest.number() + "/head")),
            command -> new GraphScan(log::accept).run(command.withSources(settings.sources())),
            settings.accounts(),
            statuses,
            (pullRequest, unit) ->
                started.add(
                    units.submit(() -> planUnit.plan(new PlanUnitCommand(pullRequest, unit)))),
            comments,
            new PlanPullRequest.Settings(settings.planForks(), "", settings.parallelism()),
            log);
    try {
      PlanPullRequestResult result = planPullRequest.plan(head);
      for (Future<?> plan : started) {
        plan.get();
      }
      return result;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new LivegateException("interrupted while planning #" + head.number(), e);
    } catch (ExecutionException e) {
      throw new LivegateException(
          "a plan of #" + head.number() + " failed: " + e.getCause().getMessage(), e.getCause());
    } finally {
      delete(checkout);
      delete(plans);
    }
  }

  @Override
  public void close() {
    dispatches.shutdownNow();
    units.shutdownNow();
  }

  private static void delete(Path directory) {
    if (!Files.exists(directory)) {
      return;
    }
    try (Stream<Path> walk = Files.walk(directory)) {
      for (Path path : walk.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(path);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot delete " + directory, e);
    }
  }

  private static java.util.concurrent.ThreadFactory daemon(String role) {
    AtomicInteger count = new AtomicInteger();
    return runnable -> {
      Thread thread = new Thread(runnable, "livegate-pr-" + role + "-" + count.incrementAndGet());
      thread.setDaemon(true);
      return thread;
    };
  }
}
