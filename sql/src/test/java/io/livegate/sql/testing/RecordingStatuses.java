package io.livegate.sql.testing;

import io.livegate.core.deploy.CommitStatusPublisher;
import io.livegate.core.pr.PostedStatus;
import java.util.ArrayList;
import java.util.List;

/**
 * Records the commit statuses posted, in order. It stands in for GitHub's API, whose requests the
 * GitHub adapter's WireMock tests assert; here the test asserts what the engine decided to post.
 */
public final class RecordingStatuses implements CommitStatusPublisher {
  private final List<PostedStatus> posted = new ArrayList<>();

  @Override
  public synchronized void publish(
      String repository,
      String sha,
      String context,
      State state,
      String description,
      String targetUrl) {
    posted.add(new PostedStatus(repository, sha, context, state, description, targetUrl));
  }

  public synchronized List<PostedStatus> posted() {
    return List.copyOf(posted);
  }

  /** The statuses posted with {@code context}, in order. */
  public synchronized List<PostedStatus> posted(String context) {
    return posted.stream().filter(status -> status.context().equals(context)).toList();
  }
}
