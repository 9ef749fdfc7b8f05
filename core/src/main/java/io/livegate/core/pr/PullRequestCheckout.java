package io.livegate.core.pr;

import java.nio.file.Path;

/** Checks out a pull request's head commit, detached, and answers the work tree's root. */
@FunctionalInterface
public interface PullRequestCheckout {
  Path checkout(PullRequestHead head);
}
