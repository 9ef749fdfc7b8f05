package io.livegate.cli;

import io.livegate.cli.local.LocalDeployer;
import io.livegate.cli.local.LocalWiring;
import io.livegate.cli.local.ResourcesRanOut;
import io.livegate.core.LivegateException;
import io.livegate.core.ProgressListener;
import io.livegate.core.account.Account;
import io.livegate.core.account.Accounts;
import io.livegate.core.admin.SummaryTable;
import io.livegate.core.deploy.CreateDeployment;
import io.livegate.core.deploy.CreateDeploymentCommand;
import io.livegate.core.deploy.Deployment;
import io.livegate.core.deploy.DeploymentStatus;
import io.livegate.core.deploy.MergedPullRequest;
import io.livegate.core.drift.DriftReport;
import io.livegate.core.runner.RunnerArgv;
import io.livegate.core.stack.DeployStack;
import io.livegate.core.vote.DeploymentView;
import io.livegate.process.ProcessCommandRunner;
import io.livegate.process.RunnerEnvironment;
import io.livegate.scan.GraphScan;
import io.livegate.scan.QueueReconcile;
import io.livegate.scan.ScanCommand;
import io.livegate.scan.config.AccountCoverage;
import io.livegate.scan.repo.GitRepo;
import java.io.File;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/** What deploy, demo and resume share: scanning, queueing and running a deployment locally. */
final class LocalRun {
  /** The voter used for accounts that list none, so local runs can still be approved. */
  static final String LOCAL_OPERATOR = "operator@localhost";

  private LocalRun() {}

  /** Fails with one line when the runner's program is not on PATH. */
  static void requireTool(RunnerArgv runner, Map<String, String> environment) {
    String program = runner == RunnerArgv.TERRAFORM ? "terraform" : "terragrunt";
    for (String dir : environment.getOrDefault("PATH", "").split(File.pathSeparator)) {
      if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, program))) {
        return;
      }
    }
    throw new LivegateException(
        program
            + " is not installed or not on PATH; livegate runs it to plan and apply"
            + (runner == RunnerArgv.TERRAGRUNT ? " (or pass --runner terraform)" : ""));
  }

  /** Accounts for local runs: those without voters get the local operator. */
  static Accounts withLocalVoter(Accounts accounts) {
    List<Account> adjusted = new ArrayList<>();
    for (Account account : accounts.all()) {
      adjusted.add(
          account.voters().isEmpty()
              ? new Account(
                  account.name(),
                  account.path(),
                  account.dependsOn(),
                  List.of(LOCAL_OPERATOR),
                  account.minApprovals(),
                  account.minRejections(),
                  account.planRole(),
                  account.applyRole(),
                  account.destroyDeleted())
              : account);
    }
    return Accounts.of(adjusted);
  }

  /** Scans base..head of the checked-out repository and queues the deployment. */
  static Deployment queue(
      LocalWiring wiring,
      Path repository,
      String base,
      String head,
      Accounts accounts,
      RunnerArgv runner,
      Map<String, String> environment,
      int parallelism,
      ProgressListener progress) {
    Path root;
    String headSha;
    String baseSha;
    try (GitRepo repo = GitRepo.open(repository)) {
      root = Path.of(repo.root());
      headSha = repo.resolve(head);
      baseSha = repo.resolve(base);
      if (!headSha.equals(repo.head())) {
        throw new LivegateException(
            "livegate deploys the checked-out files, so "
                + root
                + " must have "
                + head
                + " ("
                + headSha.substring(0, 12)
                + ") checked out");
      }
      // A typo in an account's path would deploy nothing and exit 0, using up the merge; a
      // threshold no voter set can reach would wait out the vote timeout: both are refused before
      // anything is recorded.
      AccountCoverage.requireUnitsInEveryAccount(
          repo.tree(headSha),
          repo.tree(baseSha),
          accounts,
          head
              + " ("
              + headSha.substring(0, 12)
              + ") nor at "
              + base
              + " ("
              + baseSha.substring(0, 12)
              + ")");
      AccountCoverage.requireReachableThresholds(accounts);
    }
    // A merge deploys once: say so before spending a scan on it. (This is the metadb's first
    // statement: its start in the background, LocalMetadb.starting, overlapped the web server's
    // start and the checks above.)
    for (Deployment earlier : wiring.deployments.list(root.toString())) {
      if (!earlier.pullRequest().reconcile()
          && earlier.pullRequest().mergeCommit().equals(headSha)) {
        throw queuedBefore(earlier, Commands.of(wiring, runner, false));
      }
    }
    DeployStack stack =
        new GraphScan(progress)
            .run(
                ScanCommand.builder(root, accounts)
                    .base(baseSha)
                    .head(headSha)
                    .environment(RunnerEnvironment.allowed(environment))
                    .sources(wiring.sources)
                    .parallelism(parallelism)
                    // The terragrunt that will run the units decides how skip is read.
                    .terragruntVersion(
                        TerragruntVersions.forRunner(
                            runner, environment, new ProcessCommandRunner(), progress::progress))
                    .build());
    MergedPullRequest merge =
        MergedPullRequest.withExactBase(root.toString(), 0, base, head, baseSha, headSha);
    return started(
        wiring,
        wiring.create.create(new CreateDeploymentCommand(merge, stack, accounts, runner)),
        stack,
        Commands.of(wiring, runner, false),
        progress);
  }

  /**
   * Queues the drift reconcile of what {@code report} found drifted at the checked-out trunk head
   * ({@code trunkRef}; docs/drift.md): a deployment of the drifted units only, identified by {@code
   * driftRun}, behind the same queue and merge lock as merges.
   */
  static Deployment queueReconcile(
      LocalWiring wiring,
      Path repository,
      String trunkRef,
      DriftReport report,
      String driftRun,
      Accounts accounts,
      RunnerArgv runner,
      Map<String, String> environment,
      int parallelism,
      ProgressListener progress) {
    Path root;
    try (GitRepo repo = GitRepo.open(repository)) {
      root = Path.of(repo.root());
      if (!report.head().equals(repo.head())) {
        throw new LivegateException(
            "the drift run planned " + report.head() + " but " + root + " has moved on");
      }
    }
    AccountCoverage.requireReachableThresholds(accounts);
    QueueReconcile.Queued queued =
        new QueueReconcile(
                wiring.create,
                command -> new GraphScan(progress).run(command.withSources(wiring.sources)),
                accounts,
                runner)
            .queue(
                root.toString(),
                trunkRef,
                root,
                report,
                driftRun,
                RunnerEnvironment.allowed(environment),
                parallelism);
    return started(
        wiring, queued.result(), queued.stack(), Commands.of(wiring, runner, false), progress);
  }

  /** Checks that the stored deployment is new and holds the lock, so that it can run now. */
  private static Deployment started(
      LocalWiring wiring,
      CreateDeployment.Result result,
      DeployStack stack,
      Commands commands,
      ProgressListener progress) {
    Deployment deployment = result.deployment();
    if (!result.created()) {
      throw queuedBefore(deployment, commands);
    }
    String repository = deployment.pullRequest().repository();
    if (wiring.deployments.find(deployment.id()).orElseThrow().status()
        == DeploymentStatus.QUEUED) {
      String holder =
          wiring
              .deployments
              .lockHolder(repository)
              .map(
                  held ->
                      "deployment "
                          + held.id()
                          + ", "
                          + held.status().id()
                          + nextStep(held.status(), commands))
              .orElse("an unfinished one; to finish it first, run: " + commands.resume());
      throw new LivegateException("deployment " + deployment.id() + " is queued behind " + holder);
    }
    progress.progress(
        "deployment "
            + deployment.id()
            + (deployment.pullRequest().reconcile() ? " (drift reconcile)" : "")
            + ": "
            + stack.executions().size()
            + " units in "
            + stack.layerCount()
            + " layers");
    return deployment;
  }

  private static LivegateException queuedBefore(Deployment deployment, Commands commands) {
    return new LivegateException(
        "this merge ("
            + deployment.pullRequest().mergeCommit().substring(0, 12)
            + ") was queued before as deployment "
            + deployment.id()
            + ", now "
            + deployment.status().id()
            + nextStep(deployment.status(), commands));
  }

  /**
   * What the operator can do about a deployment in {@code status}, with the command that resumes
   * it.
   */
  static String nextStep(DeploymentStatus status, Commands commands) {
    if (status == DeploymentStatus.ROLLBACK_FAILED) {
      return "; a rollback failed, so the lock stays held: see "
          + commands.status()
          + ", repair the unit by hand, then start over with a fresh --state-dir";
    }
    return status.isFinished() ? "" : "; to finish it, run: " + commands.resume();
  }

  /**
   * The commands a hint names, for this state directory and runner: following one must act on the
   * same deployments, so each names the state directory (and resume the runner) explicitly.
   */
  record Commands(String stateDirectory, String runner, boolean autoApprove) {
    static Commands of(LocalWiring wiring, RunnerArgv runner, boolean autoApprove) {
      return new Commands(
          shellWord(wiring.state.root().toString()),
          runner == RunnerArgv.TERRAFORM ? "terraform" : "terragrunt",
          autoApprove);
    }

    /** Continues the unfinished deployments the way this run would. */
    String resume() {
      return "livegate resume --state-dir "
          + stateDirectory
          + " --runner "
          + runner
          + (autoApprove ? " --auto-approve" : "");
    }

    String status() {
      return "livegate status --state-dir " + stateDirectory;
    }
  }

  /**
   * Where a run that ran out of disk space needs it: the state directory, whose file system holds
   * the metadb, the plans and the workspaces.
   */
  private static String where(LivegateException stopped, Path stateDirectory) {
    if (!(stopped instanceof ResourcesRanOut ranOut)
        || !ranOut.shortage().resource().equals("disk space")) {
      return "";
    }
    String free;
    try {
      free = Files.getFileStore(stateDirectory).getUsableSpace() / (1024 * 1024) + " MiB free now";
    } catch (IOException e) {
      free = "its free space unknown: " + e.getMessage();
    }
    return "\nThe state directory "
        + stateDirectory
        + " is on the full file system ("
        + free
        + "); free space there, then resume.";
  }

  /** {@code word} as one shell word: quoted when it holds anything a shell would read. */
  static String shellWord(String word) {
    return word.matches("[A-Za-z0-9_./~:=@%+-]+") ? word : "'" + word.replace("'", "'\\''") + "'";
  }

  /**
   * Runs the deployment to its end with the command's local options, prints the summary, and
   * returns the exit code.
   *
   * @param voterAtTerminal the voters for whom this terminal is their channel: their links are
   *     printed
   */
  static int run(
      LocalWiring wiring,
      Deployment deployment,
      RunnerArgv runner,
      LocalOptions local,
      boolean autoApprove,
      Predicate<String> voterAtTerminal,
      PrintWriter out) {
    int port = local.port;
    wiring.show(deployment.id());
    wiring.drainOnSignals(
        local.gracePeriod,
        line -> {
          out.println("livegate: " + line);
          out.flush();
        });
    LocalDeployer deployer =
        wiring.deployer(
            Path.of(deployment.pullRequest().repository()),
            runner,
            local.failurePolicy,
            local.settings(autoApprove, voterAtTerminal),
            port,
            line -> {
              out.println(line);
              out.flush();
            },
            Map.of("TF_IN_AUTOMATION", "1"));
    out.println("livegate: " + wiring.sandbox.description());
    String baseUrl = wiring.server(port).baseUrl();
    out.println("console: " + baseUrl + "/deployments/" + deployment.id());
    out.println("status page: " + baseUrl + "/status");
    if (!autoApprove) {
      out.println(
          "votes: each voter's approve and reject links are mailed to "
              + wiring.state.outbox()
              + " (one .eml file per voter and unit); the vote pages are at "
              + baseUrl);
    }
    out.flush();
    DeploymentStatus status;
    try {
      status = deployer.run(deployment.id());
    } catch (LivegateException stopped) {
      DeploymentStatus now = wiring.deployments.find(deployment.id()).orElseThrow().status();
      if (now.isFinished()) {
        throw stopped;
      }
      // Following the hint must find this deployment: it names the state dir and the runner.
      throw new LivegateException(
          stopped.getMessage()
              + where(stopped, wiring.state.root())
              + "\nTo finish deployment "
              + deployment.id()
              + ", run:\n  "
              + Commands.of(wiring, runner, autoApprove).resume(),
          stopped);
    }
    out.print(
        SummaryTable.render(
            DeploymentView.of(
                deployment.id(), wiring.deployments, wiring.executions, wiring.votes)));
    out.flush();
    return status == DeploymentStatus.SUCCEEDED ? 0 : Livegate.EXIT_FAILURE;
  }
}
