package io.livegate.lambdas.trigger;

import io.livegate.core.deploy.AdvanceDeployment;
import io.livegate.core.deploy.FailurePolicy;
import io.livegate.core.deploy.RecordOutcome;
import io.livegate.core.deploy.ReleaseReadyExecutions;
import io.livegate.core.deploy.StartNextDeployment;
import io.livegate.core.runner.RunnerKind;
import io.livegate.lambdas.aws.AwsClients;
import io.livegate.lambdas.aws.AwsSettings;
import io.livegate.lambdas.aws.Env;
import io.livegate.lambdas.aws.MetadbSource;
import io.livegate.lambdas.aws.Secrets;
import io.livegate.lambdas.aws.SfnFlows;
import io.livegate.lambdas.aws.SsmMergeLock;
import io.livegate.sql.Metadb;
import java.time.Clock;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import software.amazon.awssdk.services.secretsmanager.SecretsManagerClient;
import software.amazon.awssdk.services.sfn.SfnClient;
import software.amazon.awssdk.services.ssm.SsmClient;

/**
 * The trigger's composition root: the only place that reads its environment.
 *
 * <ul>
 *   <li>{@value #STATE_MACHINE}: the deploy flow's ARN;
 *   <li>{@value #LOCK_PARAMETER}: the SSM parameter of the merge lock;
 *   <li>{@value #APPROVAL_TIMEOUT}: how long a vote may take (ISO-8601, default P3D);
 *   <li>{@value #FAILURE_POLICY}: abort_dependents (default) or abort_all;
 *   <li>{@value #RUNNER}: terragrunt (default) or terraform, for rollback commands;
 *   <li>the metadb's, see {@link MetadbSource}, and {@code AWS_REGION}.
 * </ul>
 */
public final class TriggerWiring {
  public static final String STATE_MACHINE = "LIVEGATE_STATE_MACHINE_ARN";
  public static final String LOCK_PARAMETER = "LIVEGATE_LOCK_PARAMETER";
  public static final String APPROVAL_TIMEOUT = "LIVEGATE_APPROVAL_TIMEOUT";
  public static final String FAILURE_POLICY = "LIVEGATE_FAILURE_POLICY";
  public static final String RUNNER = "LIVEGATE_RUNNER";
  public static final Duration DEFAULT_APPROVAL_TIMEOUT = Duration.ofDays(3);

  private final AdvanceDeployment advance;

  private TriggerWiring(AdvanceDeployment advance) {
    this.advance = advance;
  }

  public static TriggerWiring fromEnvironment(Map<String, String> environment) {
    AwsClients aws = new AwsClients(AwsSettings.from(environment));
    Clock clock = Clock.systemUTC();
    Metadb metadb =
        MetadbSource.connect(environment, new Secrets(aws.build(SecretsManagerClient.builder())));
    SfnFlows flows =
        new SfnFlows(
            aws.build(SfnClient.builder()),
            Env.required(environment, STATE_MACHINE),
            Env.duration(environment, APPROVAL_TIMEOUT, DEFAULT_APPROVAL_TIMEOUT));
    SsmMergeLock lock =
        new SsmMergeLock(aws.build(SsmClient.builder()), Env.required(environment, LOCK_PARAMETER));
    StartNextDeployment startNext =
        new StartNextDeployment(metadb.deployments(), metadb.executions(), clock);
    RecordOutcome outcomes =
        new RecordOutcome(
            metadb.deployments(),
            metadb.executions(),
            startNext,
            enumValue(
                FailurePolicy.class, environment, FAILURE_POLICY, FailurePolicy.ABORT_DEPENDENTS),
            enumValue(RunnerKind.class, environment, RUNNER, RunnerKind.TERRAGRUNT),
            clock);
    return new TriggerWiring(
        new AdvanceDeployment(
            metadb.deployments(),
            metadb.executions(),
            new ReleaseReadyExecutions(metadb.deployments(), metadb.executions(), clock),
            outcomes,
            startNext,
            flows,
            lock));
  }

  public AdvanceDeployment advance() {
    return advance;
  }

  static <E extends Enum<E>> E enumValue(
      Class<E> type, Map<String, String> environment, String name, E fallback) {
    String value = Env.optional(environment, name, fallback.name());
    try {
      return Enum.valueOf(type, value.toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw new io.livegate.core.LivegateException(
          name
              + " must be one of "
              + java.util.Arrays.toString(type.getEnumConstants()).toLowerCase(Locale.ROOT)
              + ", not "
              + value);
    }
  }
}
