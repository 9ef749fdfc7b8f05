package io.livegate.core.testing;

import io.livegate.core.pr.PullRequestCommenter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Pull request comments in memory, with every write recorded, safely across threads. */
public final class InMemoryPullRequestCommenter implements PullRequestCommenter {
  private final Map<Long, Comment> comments = new LinkedHashMap<>();
  private final List<String> writes = new ArrayList<>();
  private long nextId = 1;

  @Override
  public synchronized Optional<Comment> find(String repository, int number, String marker) {
    return comments.values().stream().filter(c -> c.body().startsWith(marker)).findFirst();
  }

  @Override
  public synchronized void create(String repository, int number, String body) {
    comments.put(nextId, new Comment(nextId, body));
    nextId++;
    writes.add("create");
  }

  @Override
  public synchronized void update(String repository, long commentId, String body) {
    comments.put(commentId, new Comment(commentId, body));
    writes.add("update " + commentId);
  }

  public synchronized List<Comment> comments() {
    return List.copyOf(comments.values());
  }

  /** "create" or "update <id>", in order. */
  public synchronized List<String> writes() {
    return List.copyOf(writes);
  }
}
