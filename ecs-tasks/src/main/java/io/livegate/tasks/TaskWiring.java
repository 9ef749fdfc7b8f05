package io.livegate.tasks;

import io.livegate.aws.AssumedRoleRunner;
import io.livegate.aws.AwsClients;
import io.livegate.aws.AwsEngine;
import io.livegate.aws.AwsSettings;
import io.livegate.aws.EcsPullRequestPlanner;
import io.livegate.aws.EcsTasks;
import io.livegate.aws.Env;
import io.livegate.aws.GitHubAccess;
import io.livegate.aws.LambdaTrigger;
import io.livegate.aws.MetadbSource;
import io.livegate.aws.RoleSessions;
import io.livegate.aws.S3ExecutionLogs;
import io.livegate.aws.S3KeptOutputs;
import io.livegate.aws.S3PlanStore;
import io.livegate.aws.Secrets;
import io.livegate.aws.SesMailer;
import io.livegate.aws.SfnHeartbeat;
import io.livegate.aws.SfnTaskTokens;
import io.livegate.aws.TaskLogLink;
import io.livegate.core.LivegateException;
import io.livegate.core.Printable;
import io.livegate.core.account.Accounts;
import io.livegate.core.deploy.CommitStatusPublisher;
import io.livegate.core.deploy.FailurePolicy;
import io.livegate.core.deploy.OperatorCommands;
import io.livegate.core.drift.ReportDrift;
import io.livegate.core.engine.Engine;
import io.livegate.core.pr.LockScope;
import io.livegate.core.pr.PlanComments;
import io.livegate.core.pr.PlanPullRequestResult;
import io.livegate.core.pr.PlanUnit;
import io.livegate.core.pr.PullRequestCheckout;
import io.livegate.core.pr.PullRequestHead;
import io.livegate.core.pr.StatusLedger;
import io.livegate.core.runner.RunnerArgv;
import io.livegate.core.vote.Mailer;
import io.livegate.process.DurableKeptOutputRunner;
import io.livegate.process.LoggedCommandRunner;
import io.livegate.process.ProcessCommandRunner;
import io.livegate.process.RunnerEnvironment;
import io.livegate.process.SetprivSandbox;
import io.livegate.process.TerraRunUnitPlanner;
import io.livegate.scan.CreateDeployStack;
import io.livegate.scan.DriftScan;
import io.livegate.scan.GraphScan;
import io.livegate.scan.PlanPullRequest;
import io.livegate.scan.PlanScan;
import io.livegate.scan.QueueReconcile;
import io.livegate.scan.SandboxedPlan;
import io.livegate.scan.ScanCommand;
import io.livegate.scan.config.AccountsFile;
import io.livegate.scan.repo.Checkout;
import io.livegate.scan.repo.SourceAccess;
import io.livegate.scan.terragrunt.TerragruntVersion;
import io.livegate.sql.Metadb;
import io.livegate.statemachine.RuntimeContract;
import io.livegate.statemachine.TriggerEvent;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Clock;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Supplier;
import software.amazon.awssdk.services.ecs.EcsClient;
import software.amazon.awssdk.services.lambda.LambdaClient;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.secretsmanager.SecretsManagerClient;
import software.amazon.awssdk.services.sesv2.SesV2Client;
import software.amazon.awssdk.services.sfn.SfnClient;
import software.amazon.awssdk.services.ssm.SsmClient;
import software.amazon.awssdk.services.sts.StsClient;

/**
 * The tasks' composition root: the only place that reads their environment.
 *
 * <ul>
 *   <li>{@value RuntimeContract.Tasks#REPO_URL}: the live repository's clone URL;
 *   <li>GitHub's ({@link GitHubAccess}): optional, the token for HTTPS clones, statuses and the
 *       plan comment, and the API's URL; without a token, statuses are logged;
 *   <li>{@value RuntimeContract.Tasks#WORKSPACE}: where to check out (default /tmp/livegate);
 *   <li>{@value RuntimeContract.Artifacts#PLAN_BUCKET}: the artifact bucket for plan files;
 *   <li>{@value RuntimeContract.Tasks#ACCOUNTS}: the accounts file's text (see docs/accounts.md);
 *   <li>{@value RuntimeContract.Tasks#SCAN}: graph (default) or plan;
 *   <li>{@value RuntimeContract.Tasks#TRIGGER_FUNCTION}: the trigger Lambda's name;
 *   <li>{@value RuntimeContract.Tasks#MODULE_SOURCES_TOKEN_SECRET}: optional, a read-only token for
 *       private module sources, and {@value RuntimeContract.Tasks#MODULE_SOURCES_HOST};
 *   <li>{@value TaskLogLink#METADATA} (set by Fargate): the container's metadata, which names the
 *       task's own log stream, the log link of statuses, mail and plan comments; without it,
 *       {@value RuntimeContract.Tasks#LOG_URL} (optional);
 *   <li>pr-plan: {@value RuntimeContract.Tasks#PLAN_FORKS} (default false), {@value
 *       RuntimeContract.Tasks#PR_COMMENT} (default true), and the dispatch's {@link
 *       EcsPullRequestPlanner.Settings};
 *   <li>the trigger's {@code LIVEGATE_RUNNER} and {@code LIVEGATE_LOCK_PARAMETER}, the metadb's
 *       (see {@link MetadbSource}) and {@code AWS_REGION}.
 * </ul>
 */
public final class TaskWiring {
  private final Map<String, String> environment;
  private final PrintWriter out;
  private final AwsClients aws;
  private final Secrets secrets;
  private final GitHubAccess github;

  /** Built on first use: the pr-plan tasks have no metadb, and must not need its settings. */
  private final Supplier<Metadb> metadb;

  /** The user terraform runs as, set up once. */
  private final Supplier<SetprivSandbox> imageUser;

  /** The link to this task's own log stream, read once from the container's metadata. */
  private final Supplier<String> logUrl;

  private final Clock clock = Clock.systemUTC();

  private TaskWiring(Map<String, String> environment, PrintWriter out) {
    this.environment = environment;
    this.out = out;
    this.aws = new AwsClients(AwsSettings.from(environment));
    this.secrets = new Secrets(aws.build(SecretsManagerClient.builder()));
    this.github = GitHubAccess.from(environment, secrets, () -> aws.build(SsmClient.builder()));
    this.metadb = Secrets.memoize(() -> MetadbSource.connect(environment, secrets));
    this.logUrl = Secrets.memoize(() -> TaskLogLink.of(environment, out::println));
    this.imageUser = Secrets.memoize(this::sandboxUser);
  }

  /**
   * Statuses of a deployment: posted to GitHub (or logged) and recorded in the metadb's ledger, so
   * that the trigger posts only the final statuses no task has posted.
   */
  private CommitStatusPublisher deploymentStatuses() {
    return StatusLedger.recording(github.statuses(out::println), metadb.get().statuses(), clock);
  }

  /** The engine of create-deploy-stack, which stores deployments and starts nothing. */
  private Engine storingEngine(RunnerArgv runner) {
    Metadb store = metadb.get();
    return Engine.build(
        new Engine.Stores(
            store.deployments(),
            store.executions(),
            store.votes(),
            store.pullRequests(),
            store.statuses()),
        Engine.Runtime.storingOnly(github.statuses(out::println)),
        new Engine.Settings(
            FailurePolicy.ABORT_DEPENDENTS,
            runner,
            LockScope.REPO,
            "",
            OperatorCommands.AWS,
            clock));
  }

  public static TaskWiring fromEnvironment(Map<String, String> environment, PrintWriter out) {
    return new TaskWiring(environment, out);
  }

  /** Heartbeats for a Plan task's token while it plans (the Plan state's HeartbeatSeconds). */
  public SfnHeartbeat heartbeat(String taskToken) {
    return SfnHeartbeat.start(
        aws.build(SfnClient.builder()), taskToken, SfnHeartbeat.INTERVAL, out::println);
  }

  public TerraRunJob terraRun() {
    Metadb store = metadb.get();
    S3Client s3 = aws.build(S3Client.builder());
    String bucket = Env.required(environment, RuntimeContract.Artifacts.PLAN_BUCKET);
    SandboxedPlan.Tools tools = tools(new ProcessCommandRunner(out::println), "livegate-terra-run");
    // how each apply ended outlives the task's container, for the retry of a killed task
    DurableKeptOutputRunner durable =
        new DurableKeptOutputRunner(tools.runner(), new S3KeptOutputs(s3, bucket), out::println);
    return new TerraRunJob(
        new TerraRunJob.Ports(
            store.deployments(),
            store.executions(),
            TerraRunJob.unitStep(
                store.executions(),
                store.votes(),
                new S3PlanStore(s3, bucket),
                checkout(),
                // each command's output is also kept in the bucket, past the task's own log
                // stream: the console and status read a failed apply's error there
                new SandboxedPlan.Tools(
                    new LoggedCommandRunner(
                        durable,
                        TerraRunJob.plans(workspace()),
                        new S3ExecutionLogs(s3, bucket),
                        clock),
                    tools.argv(),
                    tools.sandbox(),
                    tools.environment()),
                workspace()),
            new SfnTaskTokens(aws.build(SfnClient.builder())),
            deploymentStatuses(),
            logUrl.get(),
            TerraRunJob.Resuming.from(durable, workspace())),
        out::println,
        clock);
  }

  /**
   * {@code scan}, applying the rules of the terragrunt release this image installed ({@link
   * RuntimeContract.RunnerVersions#TERRAGRUNT_ENV}, else the default release), and fetching remote
   * stack sources as {@link #sources()} allows.
   */
  private <R> Function<ScanCommand, R> taskScan(Function<ScanCommand, R> scan) {
    TerragruntVersion version =
        TerragruntVersion.parse(
            Env.optional(
                environment,
                RuntimeContract.RunnerVersions.TERRAGRUNT_ENV,
                RuntimeContract.RunnerVersions.TERRAGRUNT));
    return command -> scan.apply(command.withTerragruntVersion(version).withSources(sources()));
  }

  /**
   * The remote stack sources' cache, in the workspace (root's, which the image's user cannot read),
   * with nothing granted: no {@code file://} source (the container holds no repository an operator
   * would source, only the task's own files) and no credentials of the task's user.
   */
  private SourceAccess sources() {
    return SourceAccess.in(workspace());
  }

  public CreateDeployStack createDeployStack() {
    RunnerArgv runner = runner();
    Accounts accounts = accounts();
    String scan = Env.optional(environment, RuntimeContract.Tasks.SCAN, "graph");
    if (!scan.equals("graph") && !scan.equals("plan")) {
      throw new LivegateException(
          RuntimeContract.Tasks.SCAN + " must be graph or plan, not " + scan);
    }
    Consumer<String> invoke =
        triggerInvoker(Env.required(environment, RuntimeContract.Tasks.TRIGGER_FUNCTION));
    Engine engine = storingEngine(runner);
    return new CreateDeployStack(
        metadb.get().deployments(),
        engine.create(),
        new CreateDeployStack.Scanning(
            checkout(),
            workspace().resolve("repository"),
            taskScan(scan.equals("graph") ? new GraphScan(out::println)::run : planScan()::run),
            accounts,
            runner),
        new CreateDeployStack.Reporting(
            new CreateDeployStack.Events() {
              @Override
              public void deploymentCreated(long deploymentId) {
                invoke.accept(TriggerEvent.deploymentCreated(deploymentId));
              }

              @Override
              public void scanFailed(long deploymentId, String reason) {
                invoke.accept(TriggerEvent.scanFailed(deploymentId, reason));
              }
            },
            engine.statuses(),
            logUrl.get(),
            out::println),
        clock);
  }

  /**
   * create-deploy-stack's plan scan ({@value RuntimeContract.Tasks#SCAN} {@code plan}): it runs the
   * merged change's code, so every plan runs as the image's user with the session of its account's
   * plan role, as terra-run's plans do.
   */
  public PlanScan planScan() {
    return new PlanScan(
        tools(new ProcessCommandRunner(out::println), "livegate-scan"), out::println);
  }

  /**
   * pr-plan dispatch: scans the pull request and starts a {@code pr-plan unit} task per changed
   * unit. It runs nothing of the pull request's: the graph scan only reads configs.
   */
  public PlanPullRequest prPlanDispatch() {
    return new PlanPullRequest(
        pullRequestCheckout(),
        taskScan(new GraphScan(out::println)::run),
        accounts(),
        github.statuses(out::println),
        new EcsPullRequestPlanner(
            EcsTasks.fromEnvironment(aws.build(EcsClient.builder()), environment),
            EcsPullRequestPlanner.Settings.from(environment)),
        planComments(),
        new PlanPullRequest.Settings(
            Env.flag(environment, RuntimeContract.Tasks.PLAN_FORKS),
            logUrl.get(),
            Runtime.getRuntime().availableProcessors()),
        out::println);
  }

  /**
   * Tells the trigger which units a planned head changes, so that the merge gate can unblock pull
   * requests that the running deployment does not touch (lock scope {@code units}). Without {@value
   * #TRIGGER_FUNCTION} nothing is sent.
   */
  public void reportPlanned(PullRequestHead head, PlanPullRequestResult result) {
    String trigger = Env.optional(environment, RuntimeContract.Tasks.TRIGGER_FUNCTION, "");
    if (!trigger.isEmpty()) {
      triggerInvoker(trigger).accept(TriggerEvent.prPlanned(head, result));
    }
  }

  /** An asynchronous invocation of the trigger with a payload. */
  private Consumer<String> triggerInvoker(String trigger) {
    return new LambdaTrigger(aws.build(LambdaClient.builder()), trigger);
  }

  /**
   * pr-plan unit: plans one unit of the pull request with its account's plan role, never applies.
   * The task needs no metadb, no apply role and no vote key.
   */
  public PlanUnit prPlanUnit(String unit) {
    return new PlanUnit(
        pullRequestCheckout(),
        new TerraRunUnitPlanner(
            tools(
                new ProcessCommandRunner(
                    line -> out.println("[" + Printable.escape(unit) + "] " + line)),
                "livegate-pr-plan"),
            workspace().resolve("plans"),
            sources()),
        accounts(),
        github.statuses(out::println),
        planComments(),
        logUrl.get(),
        out::println);
  }

  /**
   * drift: plans every unit of the trunk's head with the plan role and reports what drifted on the
   * drift issue and, with {@value RuntimeContract.Approval#MAIL_FROM} set, by SES mail to the
   * voters of the accounts concerned (otherwise the mail is logged).
   */
  public DriftJob drift() {
    String from = Env.optional(environment, RuntimeContract.Approval.MAIL_FROM, "");
    Mailer mailer =
        from.isEmpty()
            ? (voter, mail) -> out.println("drift mail to " + voter + ": " + mail.subject())
            : new SesMailer(aws.build(SesV2Client.builder()), from);
    return new DriftJob(
        checkout(),
        workspace().resolve("repository"),
        taskScan(
            new DriftScan(
                    tools(new ProcessCommandRunner(out::println), "livegate-drift"), out::println)
                ::run),
        accounts(),
        github.driftIssues().map(issues -> new ReportDrift(issues, mailer, out::println)),
        Env.flag(environment, RuntimeContract.Tasks.DRIFT_RECONCILE, false)
            ? Optional.of(driftReconcile())
            : Optional.empty(),
        out::println);
  }

  /**
   * The drift reconcile: stored with the create-deploy-stack engine, its pending {@code
   * livegate/deploy} posted through that engine's ledger, then told to the trigger.
   */
  private DriftJob.Reconcile driftReconcile() {
    RunnerArgv runner = runner();
    Consumer<String> invoke =
        triggerInvoker(Env.required(environment, RuntimeContract.Tasks.TRIGGER_FUNCTION));
    Engine engine = storingEngine(runner);
    return new DriftJob.Reconcile(
        new QueueReconcile(
            engine.create(), taskScan(new GraphScan(out::println)::run), accounts(), runner),
        deploymentId -> invoke.accept(TriggerEvent.deploymentCreated(deploymentId)),
        engine.statuses(),
        Env.optional(environment, RuntimeContract.Tasks.LOG_URL, ""));
  }

  private PullRequestCheckout pullRequestCheckout() {
    Checkout checkout = checkout();
    Path repository = workspace().resolve("repository");
    return head ->
        checkout.at(
            repository, head.headSha(), Optional.of("refs/pull/" + head.number() + "/head"));
  }

  private Optional<PlanComments> planComments() {
    return Env.flag(environment, RuntimeContract.Tasks.PR_COMMENT, true)
        ? github.planComments(out::println)
        : Optional.empty();
  }

  private Checkout checkout() {
    return new Checkout(Env.required(environment, RuntimeContract.Tasks.REPO_URL), github.token());
  }

  private Accounts accounts() {
    return AccountsFile.parse(
        RuntimeContract.Tasks.ACCOUNTS, Env.required(environment, RuntimeContract.Tasks.ACCOUNTS));
  }

  /**
   * terraform and terragrunt run as the image's unprivileged user, the task's Java as root: the
   * code being deployed cannot read the Java process's environment (container credentials, task
   * token, metadb settings) nor its memory. See docs/security.md.
   */
  private SetprivSandbox imageUser() {
    return imageUser.get();
  }

  /**
   * The user terraform runs as; with {@value RuntimeContract.Tasks#MODULE_SOURCES_TOKEN_SECRET},
   * its home signs git in to the module sources' host with that token ({@link ModuleSources}).
   */
  private SetprivSandbox sandboxUser() {
    SetprivSandbox sandbox =
        new SetprivSandbox(
            SetprivSandbox.IMAGE_USER, SetprivSandbox.IMAGE_USER, workspace().resolve("home"));
    ModuleSources.install(environment, secrets, sandbox.home());
    return sandbox;
  }

  /** The task's environment with the home of the user terraform runs as. */
  /**
   * What terraform may see of a task's {@code environment}, with {@code HOME} the sandbox user's:
   * only what a runner may see. A copy of the task's whole environment carried the task role's own
   * credentials endpoint (AWS_CONTAINER_*), which only a comparison with the JVM's kept out.
   */
  public static Map<String, String> terraformEnvironment(
      Map<String, String> environment, Path home) {
    Map<String, String> terraform = new HashMap<>(RunnerEnvironment.allowed(environment));
    terraform.put("HOME", home.toString());
    return terraform;
  }

  /**
   * What every task runs the repository's code with: each command as the image's user ({@link
   * #imageUser}), with the sessions of the account role its argv names, assumed with the task role
   * and served on a loopback endpoint that renews them ({@link AssumedRoleRunner}, {@link
   * RoleSessions}); the task role's own credentials never reach terraform. A session lasts {@value
   * RuntimeContract.Tasks#ROLE_SESSION_DURATION} (default one hour).
   */
  private SandboxedPlan.Tools tools(ProcessCommandRunner processes, String sessionName) {
    return new SandboxedPlan.Tools(
        new AssumedRoleRunner(
            processes,
            new RoleSessions(
                aws.build(StsClient.builder()),
                sessionName,
                Env.duration(
                    environment,
                    RuntimeContract.Tasks.ROLE_SESSION_DURATION,
                    RuntimeContract.Tasks.DEFAULT_ROLE_SESSION_DURATION),
                Clock.systemUTC()),
            Env.required(environment, "AWS_REGION")),
        runner(),
        imageUser(),
        terraformEnvironment(environment, imageUser().home()));
  }

  private Path workspace() {
    return Path.of(Env.optional(environment, RuntimeContract.Tasks.WORKSPACE, "/tmp/livegate"));
  }

  private RunnerArgv runner() {
    return AwsEngine.enumValue(
        RunnerArgv.class, environment, RuntimeContract.Engine.RUNNER, RunnerArgv.TERRAGRUNT);
  }
}
