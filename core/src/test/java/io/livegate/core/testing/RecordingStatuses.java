package io.livegate.core.testing;

import io.livegate.core.deploy.CommitStatusPublisher;
import java.util.ArrayList;
import java.util.List;

/** A {@link CommitStatusPublisher} that keeps every status, in order, safely across threads. */
public final class RecordingStatuses implements CommitStatusPublisher {
  /** One posted status. */
  public record Status(
      String repository,
      String sha,
      String context,
      State state,
      String description,
      String targetUrl) {}

  private final List<Status> statuses = new ArrayList<>();

  @Override
  public synchronized void publish(
      String repository,
      String sha,
      String context,
      State state,
      String description,
      String targetUrl) {
    statuses.add(new Status(repository, sha, context, state, description, targetUrl));
  }

  public synchronized List<Status> all() {
    return List.copyOf(statuses);
  }

  /** The statuses of one context, in order. */
  public synchronized List<Status> of(String context) {
    return statuses.stream().filter(status -> status.context().equals(context)).toList();
  }

  /** The last status of each context that was posted, in the order of their first post. */
  public synchronized List<Status> latest() {
    java.util.Map<String, Status> last = new java.util.LinkedHashMap<>();
    statuses.forEach(status -> last.put(status.context(), status));
    return List.copyOf(last.values());
  }
}
