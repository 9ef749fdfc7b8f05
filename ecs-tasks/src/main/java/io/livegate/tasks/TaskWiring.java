package io.livegate.tasks;

import io.livegate.cli.process.ProcessCommandRunner;
import io.livegate.core.LivegateException;
import io.livegate.core.account.Accounts;
import io.livegate.core.account.AccountsFile;
import io.livegate.core.deploy.CreateDeployment;
import io.livegate.core.deploy.StartNextDeployment;
import io.livegate.core.runner.RunnerKind;
import io.livegate.core.scan.GraphScan;
import io.livegate.core.scan.PlanScan;
import io.livegate.lambdas.aws.AwsClients;
import io.livegate.lambdas.aws.AwsSettings;
import io.livegate.lambdas.aws.Env;
import io.livegate.lambdas.aws.MetadbSource;
import io.livegate.lambdas.aws.PlanArtifacts;
import io.livegate.lambdas.aws.Secrets;
import io.livegate.lambdas.aws.SfnTaskTokens;
import io.livegate.lambdas.aws.SsmMergeLock;
import io.livegate.lambdas.trigger.TriggerHandler;
import io.livegate.lambdas.trigger.TriggerWiring;
import io.livegate.sql.Metadb;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.lambda.LambdaClient;
import software.amazon.awssdk.services.lambda.model.InvocationType;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.secretsmanager.SecretsManagerClient;
import software.amazon.awssdk.services.sfn.SfnClient;
import software.amazon.awssdk.services.ssm.SsmClient;

/**
 * The tasks' composition root: the only place that reads their environment.
 *
 * <ul>
 *   <li>{@value #REPO_URL}: the live repository's clone URL;
 *   <li>{@value #GITHUB_TOKEN_SECRET}: optional, the secret with a token for HTTPS clones;
 *   <li>{@value #WORKSPACE}: where to check out (default /tmp/livegate);
 *   <li>{@value #PLAN_BUCKET}: the artifact bucket for plan files;
 *   <li>{@value #ACCOUNTS}: the accounts file's text (see docs/accounts.md);
 *   <li>{@value #SCAN}: graph (default) or plan;
 *   <li>{@value #TRIGGER_FUNCTION}: the trigger Lambda's name;
 *   <li>{@value #LOG_URL}: optional, a link to the task's log for statuses and mail;
 *   <li>the trigger's {@code LIVEGATE_RUNNER} and {@code LIVEGATE_LOCK_PARAMETER}, the metadb's
 *       (see {@link MetadbSource}) and {@code AWS_REGION}.
 * </ul>
 */
public final class TaskWiring {
  public static final String REPO_URL = "LIVEGATE_REPO_URL";
  public static final String GITHUB_TOKEN_SECRET = "LIVEGATE_GITHUB_TOKEN_SECRET_ARN";
  public static final String WORKSPACE = "LIVEGATE_WORKSPACE";
  public static final String PLAN_BUCKET = "LIVEGATE_PLAN_BUCKET";
  public static final String ACCOUNTS = "LIVEGATE_ACCOUNTS";
  public static final String SCAN = "LIVEGATE_SCAN";
  public static final String TRIGGER_FUNCTION = "LIVEGATE_TRIGGER_FUNCTION";
  public static final String LOG_URL = "LIVEGATE_LOG_URL";

  private final Map<String, String> environment;
  private final PrintWriter out;
  private final AwsClients aws;
  private final Secrets secrets;
  private final Metadb metadb;
  private final Clock clock = Clock.systemUTC();

  private TaskWiring(Map<String, String> environment, PrintWriter out) {
    this.environment = environment;
    this.out = out;
    this.aws = new AwsClients(AwsSettings.from(environment));
    this.secrets = new Secrets(aws.build(SecretsManagerClient.builder()));
    this.metadb = MetadbSource.connect(environment, secrets);
  }

  public static TaskWiring fromEnvironment(Map<String, String> environment, PrintWriter out) {
    return new TaskWiring(environment, out);
  }

  public TerraRunJob terraRun() {
    return new TerraRunJob(
        metadb.deployments(),
        metadb.executions(),
        new PlanArtifacts(aws.build(S3Client.builder()), Env.required(environment, PLAN_BUCKET)),
        new SfnTaskTokens(aws.build(SfnClient.builder())),
        checkout(),
        new ProcessCommandRunner(out::println),
        runner(),
        Path.of(Env.optional(environment, WORKSPACE, "/tmp/livegate")),
        environment,
        Env.optional(environment, LOG_URL, ""),
        out::println,
        clock);
  }

  public CreateDeployStackJob createDeployStack() {
    RunnerKind runner = runner();
    Accounts accounts = AccountsFile.parse(ACCOUNTS, Env.required(environment, ACCOUNTS));
    String scan = Env.optional(environment, SCAN, "graph");
    if (!scan.equals("graph") && !scan.equals("plan")) {
      throw new LivegateException(SCAN + " must be graph or plan, not " + scan);
    }
    LambdaClient lambda = aws.build(LambdaClient.builder());
    String trigger = Env.required(environment, TRIGGER_FUNCTION);
    return new CreateDeployStackJob(
        new CreateDeployment(
            metadb.deployments(),
            new StartNextDeployment(metadb.deployments(), metadb.executions(), clock),
            clock),
        scan.equals("graph")
            ? new GraphScan(out::println)::run
            : new PlanScan(
                    new ProcessCommandRunner(out::println), runner, environment, out::println)
                ::run,
        checkout(),
        accounts,
        runner,
        new SsmMergeLock(
            aws.build(SsmClient.builder()),
            Env.required(environment, TriggerWiring.LOCK_PARAMETER)),
        new LoggedStatuses(out::println),
        deploymentId ->
            lambda.invoke(
                request ->
                    request
                        .functionName(trigger)
                        .invocationType(InvocationType.EVENT)
                        .payload(
                            SdkBytes.fromString(
                                "{\""
                                    + TriggerHandler.DEPLOYMENT_CREATED
                                    + "\":"
                                    + deploymentId
                                    + "}",
                                StandardCharsets.UTF_8))),
        Path.of(Env.optional(environment, WORKSPACE, "/tmp/livegate")).resolve("repository"),
        Env.optional(environment, LOG_URL, ""),
        out::println);
  }

  private Checkout checkout() {
    Optional<String> token =
        Optional.ofNullable(environment.get(GITHUB_TOKEN_SECRET))
            .filter(s -> !s.isBlank())
            .map(secrets::text);
    return new Checkout(Env.required(environment, REPO_URL), token);
  }

  private RunnerKind runner() {
    String value = Env.optional(environment, TriggerWiring.RUNNER, "terragrunt");
    try {
      return RunnerKind.valueOf(value.toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw new LivegateException(
          TriggerWiring.RUNNER + " must be terragrunt or terraform, not " + value);
    }
  }
}
