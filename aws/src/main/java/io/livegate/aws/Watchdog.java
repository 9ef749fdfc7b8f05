package io.livegate.aws;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.livegate.core.Jackson;
import io.livegate.core.LivegateException;
import io.livegate.statemachine.RuntimeContract;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.ecs.EcsClient;
import software.amazon.awssdk.services.ecs.model.DesiredStatus;
import software.amazon.awssdk.services.ecs.model.Task;
import software.amazon.awssdk.services.ssm.SsmClient;
import software.amazon.awssdk.services.ssm.model.ParameterNotFoundException;

/**
 * What the trigger checks on its schedule, for what no event reports: how long the merge lock has
 * been held (the age of its SSM parameter, which is created when a deployment takes the lock and
 * deleted when it hands it on), and create-deploy-stack tasks still running past the scan timeout,
 * which it stops. A stopped scan reaches the trigger through the StoppedTasks rule like any other
 * dead scan, so the deployment fails and the lock passes on. Both figures are printed as a
 * CloudWatch embedded-metric line, which Lambda's log delivery turns into the metrics the stack's
 * alarms watch ({@value RuntimeContract.Watchdog#LOCK_HELD_METRIC} and {@value
 * RuntimeContract.Watchdog#SCANS_STOPPED_METRIC}, in the namespace {@value
 * RuntimeContract.Watchdog#METRIC_NAMESPACE} names).
 */
public final class Watchdog {
  private static final String LOCK_HELD = RuntimeContract.Watchdog.LOCK_HELD_METRIC;
  private static final String SCANS_STOPPED = RuntimeContract.Watchdog.SCANS_STOPPED_METRIC;
  private static final ObjectMapper JSON = Jackson.MAPPER;

  /**
   * One check's findings.
   *
   * @param lockHeld how long the lock's holder has held it; empty when the lock is free
   * @param stoppedScans the scan tasks stopped for running past the timeout
   */
  public record Report(Optional<Duration> lockHeld, List<String> stoppedScans) {
    public Report {
      stoppedScans = List.copyOf(stoppedScans);
    }

    /** What the trigger answers: one line for a person reading the log. */
    public String message() {
      return "watchdog: "
          + lockHeld.map(held -> "the merge lock is held for " + held).orElse("the lock is free")
          + "; "
          + (stoppedScans.isEmpty()
              ? "no scan ran past its timeout"
              : "stopped " + stoppedScans.size() + " scan(s) past the timeout: " + stoppedScans);
    }
  }

  private final SsmClient ssm;
  private final String lockParameter;
  private final EcsClient ecs;
  private final String cluster;
  private final String scanFamily;
  private final Duration scanTimeout;
  private final String namespace;
  private final Clock clock;

  /**
   * @param scanTaskDefinition create-deploy-stack's task definition (ARN, or family); its family is
   *     what the running tasks are listed by
   * @param namespace the CloudWatch namespace of the metrics
   */
  public Watchdog(
      SsmClient ssm,
      String lockParameter,
      EcsClient ecs,
      String cluster,
      String scanTaskDefinition,
      Duration scanTimeout,
      String namespace,
      Clock clock) {
    this.ssm = ssm;
    this.lockParameter = lockParameter;
    this.ecs = ecs;
    this.cluster = cluster;
    this.scanFamily = family(scanTaskDefinition);
    this.scanTimeout = scanTimeout;
    this.namespace = namespace;
    this.clock = clock;
  }

  /** The trigger's watchdog, from the same environment as its engine, on {@code clock}. */
  public static Watchdog fromEnvironment(
      AwsClients aws, Map<String, String> environment, Clock clock) {
    return new Watchdog(
        aws.build(SsmClient.builder()),
        Env.required(environment, RuntimeContract.Engine.LOCK_PARAMETER),
        aws.build(EcsClient.builder()),
        Env.required(environment, RuntimeContract.Ecs.CLUSTER),
        Env.required(environment, RuntimeContract.Scan.TASK_DEFINITION),
        Env.duration(
            environment,
            RuntimeContract.Watchdog.SCAN_TIMEOUT,
            RuntimeContract.Watchdog.DEFAULT_SCAN_TIMEOUT),
        Env.required(environment, RuntimeContract.Watchdog.METRIC_NAMESPACE),
        clock);
  }

  /** Checks the lock and the scans, stops overdue scans, and prints the metrics. */
  public Report check() {
    Instant now = clock.instant();
    Report report = new Report(lockHeld(now), stopOverdueScans(now));
    System.out.println(metrics(report, now));
    return report;
  }

  /** The report as one CloudWatch embedded-metric-format line. */
  String metrics(Report report, Instant now) {
    ObjectNode line = JSON.createObjectNode();
    ObjectNode aws = line.putObject("_aws");
    aws.put("Timestamp", now.toEpochMilli());
    ObjectNode directive = aws.putArray("CloudWatchMetrics").addObject();
    directive.put("Namespace", namespace);
    directive.putArray("Dimensions").addArray();
    ArrayNode metrics = directive.putArray("Metrics");
    metrics.addObject().put("Name", LOCK_HELD).put("Unit", "Seconds");
    metrics.addObject().put("Name", SCANS_STOPPED).put("Unit", "Count");
    line.put(LOCK_HELD, report.lockHeld().map(Duration::toSeconds).orElse(0L));
    line.put(SCANS_STOPPED, report.stoppedScans().size());
    return line.toString();
  }

  private Optional<Duration> lockHeld(Instant now) {
    try {
      Instant since =
          ssm.getParameter(request -> request.name(lockParameter)).parameter().lastModifiedDate();
      Duration held = Duration.between(since, now);
      return Optional.of(held.isNegative() ? Duration.ZERO : held);
    } catch (ParameterNotFoundException e) {
      return Optional.empty();
    } catch (SdkException e) {
      throw new LivegateException(
          "watchdog: cannot read the merge lock " + lockParameter + ": " + e.getMessage(), e);
    }
  }

  private List<String> stopOverdueScans(Instant now) {
    List<String> stopped = new ArrayList<>();
    try {
      List<String> running =
          ecs
              .listTasksPaginator(
                  request ->
                      request
                          .cluster(cluster)
                          .family(scanFamily)
                          .desiredStatus(DesiredStatus.RUNNING))
              .taskArns()
              .stream()
              .toList();
      // DescribeTasks takes at most 100 tasks; a cluster never runs that many scans at once, but
      // the batches keep the check right if it did.
      for (int from = 0; from < running.size(); from += 100) {
        List<String> batch = running.subList(from, Math.min(running.size(), from + 100));
        for (Task task :
            ecs.describeTasks(request -> request.cluster(cluster).tasks(batch)).tasks()) {
          Instant started = task.startedAt() != null ? task.startedAt() : task.createdAt();
          if (started != null && Duration.between(started, now).compareTo(scanTimeout) > 0) {
            ecs.stopTask(
                request ->
                    request
                        .cluster(cluster)
                        .task(task.taskArn())
                        .reason(
                            "livegate watchdog: create-deploy-stack ran past its timeout "
                                + scanTimeout));
            stopped.add(task.taskArn());
          }
        }
      }
    } catch (SdkException e) {
      throw new LivegateException(
          "watchdog: cannot check the scan tasks of " + cluster + ": " + e.getMessage(), e);
    }
    return stopped;
  }

  /** {@code arn:...:task-definition/FAMILY:REVISION}, {@code FAMILY:REVISION} or a family. */
  static String family(String taskDefinition) {
    String name = taskDefinition.substring(taskDefinition.lastIndexOf('/') + 1);
    int revision = name.lastIndexOf(':');
    return revision < 0 ? name : name.substring(0, revision);
  }
}
