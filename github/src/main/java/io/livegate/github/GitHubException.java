package io.livegate.github;

import io.livegate.core.LivegateException;

/** A GitHub API call that failed for good: refused, or still failing after its retries. */
public final class GitHubException extends LivegateException {
  private static final long serialVersionUID = 1L;

  private final int status;

  public GitHubException(String message, int status, Throwable cause) {
    super(message, cause);
    this.status = status;
  }

  /** The last HTTP status, or -1 when no answer came (a connection error). */
  public int status() {
    return status;
  }
}
