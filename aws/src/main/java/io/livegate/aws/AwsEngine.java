package io.livegate.aws;

import io.livegate.core.LivegateException;
import io.livegate.core.Printable;
import io.livegate.core.deploy.AdvanceDeployment;
import io.livegate.core.deploy.CommitStatusPublisher;
import io.livegate.core.deploy.FailurePolicy;
import io.livegate.core.deploy.OperatorCommands;
import io.livegate.core.engine.Engine;
import io.livegate.core.pr.FinalStatuses;
import io.livegate.core.pr.LockScope;
import io.livegate.core.pr.MergeGate;
import io.livegate.core.runner.RunnerArgv;
import io.livegate.sql.Metadb;
import io.livegate.statemachine.RuntimeContract;
import java.time.Clock;
import java.time.Duration;
import java.util.Arrays;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import software.amazon.awssdk.services.ecs.EcsClient;
import software.amazon.awssdk.services.sfn.SfnClient;
import software.amazon.awssdk.services.ssm.SsmClient;

/**
 * The engine as the trigger and the webhook receiver both drive it: the metadb, the deploy flow's
 * state machine, the merge lock in SSM (announced to open pull requests through the merge gate),
 * and create-deploy-stack on ECS. It reads:
 *
 * <ul>
 *   <li>{@value RuntimeContract.Engine#STATE_MACHINE}: the deploy flow's ARN;
 *   <li>{@value RuntimeContract.Engine#LOCK_PARAMETER}: the SSM parameter of the merge lock;
 *   <li>{@value RuntimeContract.Engine#LOCK_SCOPE}: repo (default) or units;
 *   <li>{@value RuntimeContract.Engine#APPROVAL_TIMEOUT}: how long a vote may take (ISO-8601,
 *       default P3D);
 *   <li>{@value RuntimeContract.Engine#FAILURE_POLICY}: abort_dependents (default) or abort_all;
 *   <li>{@value RuntimeContract.Engine#RUNNER}: terragrunt (default) or terraform, for rollback
 *       commands;
 *   <li>{@value RuntimeContract.Engine#STATUS_URL}: where the merge-lock status links to
 *       (optional);
 *   <li>{@link EcsTasks}'s and {@value RuntimeContract.Scan#TASK_DEFINITION};
 *   <li>{@link GitHubAccess}'s: the GitHub token (statuses are logged without one);
 *   <li>the metadb's, see {@link MetadbSource}, and {@code AWS_REGION}.
 * </ul>
 *
 * Nothing here opens a connection while a Lambda initialises.
 */
public final class AwsEngine {
  public static final Duration DEFAULT_APPROVAL_TIMEOUT = Duration.ofDays(3);

  private final AwsClients aws;
  private final Metadb metadb;
  private final Secrets secrets;
  private final GitHubAccess github;
  private final EcsTasks ecs;
  private final Engine engine;

  private AwsEngine(Map<String, String> environment, Optional<CommitStatusPublisher> instead) {
    this.aws = new AwsClients(AwsSettings.from(environment));
    this.secrets = Secrets.of(aws);
    this.metadb = MetadbSource.connect(environment, secrets);
    this.github = GitHubAccess.from(environment, secrets, () -> aws.build(SsmClient.builder()));
    this.ecs =
        EcsTasks.fromEnvironment(
            aws.build(
                EcsClient.builder(),
                client ->
                    client.runTask(
                        request ->
                            request
                                .cluster(AwsClients.PLACEHOLDER)
                                .taskDefinition(AwsClients.PLACEHOLDER))),
            environment);
    SfnFlows flows =
        new SfnFlows(
            aws.build(
                SfnClient.builder(),
                client ->
                    client.startExecution(
                        request ->
                            request
                                .stateMachineArn(AwsClients.PLACEHOLDER)
                                .name(AwsClients.PLACEHOLDER)
                                .input("{}"))),
            Env.required(environment, RuntimeContract.Engine.STATE_MACHINE),
            Env.duration(
                environment, RuntimeContract.Engine.APPROVAL_TIMEOUT, DEFAULT_APPROVAL_TIMEOUT));
    SsmMergeLock lock =
        new SsmMergeLock(
            aws.build(
                SsmClient.builder(),
                client ->
                    client.putParameter(
                        request ->
                            request
                                .name(AwsClients.PLACEHOLDER)
                                .value(AwsClients.PLACEHOLDER)
                                .overwrite(false))),
            Env.required(environment, RuntimeContract.Engine.LOCK_PARAMETER));
    this.engine =
        Engine.build(
            new Engine.Stores(
                metadb.deployments(),
                metadb.executions(),
                metadb.votes(),
                metadb.pullRequests(),
                metadb.statuses()),
            new Engine.Runtime(
                flows,
                new EcsScanLauncher(
                    ecs, Env.required(environment, RuntimeContract.Scan.TASK_DEFINITION)),
                lock,
                // a status's message names units and branches: one message, one log line
                instead.orElseGet(
                    () ->
                        github.statuses(message -> System.out.println(Printable.escape(message))))),
            new Engine.Settings(
                enumValue(
                    FailurePolicy.class,
                    environment,
                    RuntimeContract.Engine.FAILURE_POLICY,
                    FailurePolicy.ABORT_DEPENDENTS),
                enumValue(
                    RunnerArgv.class,
                    environment,
                    RuntimeContract.Engine.RUNNER,
                    RunnerArgv.TERRAGRUNT),
                LockScope.fromId(
                    Env.optional(
                        environment, RuntimeContract.Engine.LOCK_SCOPE, LockScope.REPO.id())),
                Env.optional(environment, RuntimeContract.Engine.STATUS_URL, ""),
                OperatorCommands.AWS,
                Clock.systemUTC()));
  }

  /** The final statuses that no task posts (rejections, aborts, the deployment's end). */
  public FinalStatuses finalStatuses() {
    return engine.finalStatuses();
  }

  public static AwsEngine fromEnvironment(Map<String, String> environment) {
    return new AwsEngine(environment, Optional.empty());
  }

  /**
   * The engine of an entry point that must answer before GitHub would: commit statuses are recorded
   * in the metadb's ledger as always, and go to {@code outbox} instead of GitHub, for the entry
   * point to hand on once it has answered ({@link StatusOutbox}).
   */
  public static AwsEngine holdingStatuses(Map<String, String> environment, StatusOutbox outbox) {
    return new AwsEngine(environment, Optional.of(outbox));
  }

  /** The engine's AWS clients, for SnapStart priming. */
  public AwsClients aws() {
    return aws;
  }

  public Metadb metadb() {
    return metadb;
  }

  public Secrets secrets() {
    return secrets;
  }

  public GitHubAccess github() {
    return github;
  }

  /** Starts livegate's ECS tasks. */
  public EcsTasks ecs() {
    return ecs;
  }

  /** Posts commit statuses and records them in the metadb's ledger. */
  public CommitStatusPublisher statuses() {
    return engine.statuses();
  }

  public MergeGate gate() {
    return engine.gate();
  }

  public AdvanceDeployment advance() {
    return engine.advance();
  }

  /** The engine itself, for the entry points that use more of it than the trigger does. */
  public Engine engine() {
    return engine;
  }

  /** The enum constant that the variable {@code name} names, case-insensitively; else an error. */
  public static <E extends Enum<E>> E enumValue(
      Class<E> type, Map<String, String> environment, String name, E fallback) {
    String value = Env.optional(environment, name, fallback.name());
    try {
      return Enum.valueOf(type, value.toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw new LivegateException(
          name
              + " must be one of "
              + Arrays.toString(type.getEnumConstants()).toLowerCase(Locale.ROOT)
              + ", not "
              + value);
    }
  }
}
