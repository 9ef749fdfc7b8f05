package io.livegate.aws;

import io.livegate.core.LivegateException;
import io.livegate.core.runner.BoundedLog;
import io.livegate.core.runner.ExecutionLogs;
import io.livegate.statemachine.RuntimeContract;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Optional;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;

/**
 * The execution logs on AWS: one object per execution, {@code logs/<execution>.log} in the artifact
 * bucket, bounded as {@link BoundedLog} says. The terra-run task that runs an execution's command
 * is the only writer of its log while it runs (one task per flow state, one at a time), so an
 * append reads the object and writes it back whole.
 *
 * <p>Beside each log, {@code logs/<execution>.plan.txt} keeps a copy of the execution's plan as
 * {@code terraform show} printed it (sensitive values already redacted by terraform), bounded and
 * escaped as a log entry's output: the console on AWS shows it through the admin function, which
 * may read the logs but not the saved plans (their binary files hold sensitive values in the
 * clear). The log holds that same text already, in the entry of the {@code show} command.
 */
public final class S3ExecutionLogs implements ExecutionLogs {
  private final S3Client s3;
  private final String bucket;

  public S3ExecutionLogs(S3Client s3, String bucket) {
    this.s3 = s3;
    this.bucket = bucket;
  }

  @Override
  public void append(
      String executionName, String command, int exitCode, String output, Instant at) {
    String key = key(executionName);
    String log = read(executionName).orElse("");
    Optional<String> entry = BoundedLog.entry(log.length(), command, exitCode, output, at);
    if (entry.isEmpty()) {
      return;
    }
    try {
      s3.putObject(
          request -> request.bucket(bucket).key(key).contentType("text/plain; charset=utf-8"),
          RequestBody.fromString(log + entry.get(), StandardCharsets.UTF_8));
    } catch (SdkException e) {
      throw new LivegateException(
          "cannot write the log " + key + " to " + bucket + ": " + e.getMessage(), e);
    }
  }

  @Override
  public Optional<String> read(String executionName) {
    return get(key(executionName), "the log");
  }

  private Optional<String> get(String key, String what) {
    try {
      return Optional.of(
          s3.getObjectAsBytes(request -> request.bucket(bucket).key(key))
              .asString(StandardCharsets.UTF_8));
    } catch (NoSuchKeyException e) {
      return Optional.empty();
    } catch (SdkException e) {
      throw new LivegateException(
          "cannot read " + what + " " + key + " from " + bucket + ": " + e.getMessage(), e);
    }
  }

  /** Keeps {@code planText} as the console's copy of the plan of {@code executionName}. */
  public void keepPlan(String executionName, String planText) {
    String key = planKey(executionName);
    try {
      s3.putObject(
          request -> request.bucket(bucket).key(key).contentType("text/plain; charset=utf-8"),
          RequestBody.fromString(BoundedLog.kept(planText), StandardCharsets.UTF_8));
    } catch (SdkException e) {
      throw new LivegateException(
          "cannot write the plan's text " + key + " to " + bucket + ": " + e.getMessage(), e);
    }
  }

  /** The console's copy of the plan of {@code executionName}, or empty when none was kept. */
  public Optional<String> plan(String executionName) {
    return get(planKey(executionName), "the plan's text");
  }

  @Override
  public String location(String executionName) {
    return "s3://" + bucket + "/" + key(executionName);
  }

  private static String key(String executionName) {
    return RuntimeContract.Artifacts.LOGS_PREFIX + checked(executionName) + ".log";
  }

  private static String planKey(String executionName) {
    return RuntimeContract.Artifacts.LOGS_PREFIX + checked(executionName) + ".plan.txt";
  }

  private static String checked(String executionName) {
    if (!BoundedLog.isExecutionName(executionName)) {
      throw new LivegateException("'" + executionName + "' is not an execution name");
    }
    return executionName;
  }
}
