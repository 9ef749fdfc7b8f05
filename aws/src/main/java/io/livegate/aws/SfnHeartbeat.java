package io.livegate.aws;

import io.livegate.core.DaemonThreads;
import java.time.Duration;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.sfn.SfnClient;

/**
 * Sends Step Functions heartbeats for a task token while terra-run plans, so the Plan state's
 * {@code HeartbeatSeconds} fails a task that died without answering its token in minutes, not at
 * the two-hour task timeout. A heartbeat that fails is reported and the next one tried: the plan
 * itself goes on, and if its token is gone its answer is refused anyway.
 */
public final class SfnHeartbeat implements AutoCloseable {
  /** How often a heartbeat is sent; the state's HeartbeatSeconds allows several to be missed. */
  public static final Duration INTERVAL = Duration.ofSeconds(60);

  private final ScheduledExecutorService timer;

  private SfnHeartbeat(ScheduledExecutorService timer) {
    this.timer = timer;
  }

  /** Starts sending heartbeats for {@code taskToken}, the first one now. */
  public static SfnHeartbeat start(
      SfnClient sfn, String taskToken, Duration interval, Consumer<String> log) {
    ScheduledExecutorService timer = DaemonThreads.timer("sfn-heartbeat");
    timer.scheduleAtFixedRate(
        () -> {
          try {
            sfn.sendTaskHeartbeat(request -> request.taskToken(taskToken));
          } catch (SdkException e) {
            log.accept("heartbeat not sent: " + e.getMessage());
          }
        },
        0,
        interval.toMillis(),
        TimeUnit.MILLISECONDS);
    return new SfnHeartbeat(timer);
  }

  /** Stops the heartbeats; the token is answered by the plan. */
  @Override
  public void close() {
    timer.shutdownNow();
  }
}
