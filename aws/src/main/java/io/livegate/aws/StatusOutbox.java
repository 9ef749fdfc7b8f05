package io.livegate.aws;

import io.livegate.core.deploy.CommitStatusPublisher;
import io.livegate.core.pr.PostedStatus;
import io.livegate.statemachine.TriggerEvent;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * The webhook's commit statuses, held instead of posted while it answers GitHub: a merge that takes
 * the lock sets {@code livegate/merge-lock} on every open pull request, and 200 of them posted one
 * by one (each with its retries and rate-limit waits) would outlast GitHub's 10 s, which then fails
 * the delivery and forgets it. The webhook records what is durable (the delivery, the deployment,
 * the lock, the statuses' ledger in the metadb), answers, and hands what it held to the trigger in
 * {@value TriggerEvent#POST_STATUSES} events (an asynchronous invoke; failures end in the trigger's
 * dead-letter queue), which posts them.
 */
public final class StatusOutbox implements CommitStatusPublisher {
  /** Lambda takes at most 256 KB per asynchronous invoke; each event stays well under. */
  static final int MAX_EVENT_BYTES = 200_000;

  private final List<PostedStatus> held = new ArrayList<>();

  @Override
  public synchronized void publish(
      String repository,
      String sha,
      String context,
      State state,
      String description,
      String targetUrl) {
    held.add(new PostedStatus(repository, sha, context, state, description, targetUrl));
  }

  /**
   * Sends what is held to {@code trigger} as {@value TriggerEvent#POST_STATUSES} events, in the
   * order published, and forgets it.
   *
   * @return how many statuses were handed on
   */
  public synchronized int handTo(Consumer<String> trigger) {
    int handed = held.size();
    List<PostedStatus> batch = new ArrayList<>();
    int bytes = 0;
    for (PostedStatus status : held) {
      int size = TriggerEvent.postStatuses(List.of(status)).length();
      if (!batch.isEmpty() && bytes + size > MAX_EVENT_BYTES) {
        trigger.accept(TriggerEvent.postStatuses(batch));
        batch = new ArrayList<>();
        bytes = 0;
      }
      batch.add(status);
      bytes += size;
    }
    if (!batch.isEmpty()) {
      trigger.accept(TriggerEvent.postStatuses(batch));
    }
    held.clear();
    return handed;
  }
}
