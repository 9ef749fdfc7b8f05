package io.livegate.core.pr;

import io.livegate.core.LivegateException;
import java.util.Locale;

/** Which open pull requests a deployment in progress keeps from merging. */
public enum LockScope {
  /** Every pull request of the repository: the default, and the simplest to reason about. */
  REPO,
  /**
   * Only pull requests that change a unit of the running deployment. A pull request whose units are
   * not known yet (its plan has not named them) stays blocked until they are.
   */
  UNITS;

  public String id() {
    return name().toLowerCase(Locale.ROOT);
  }

  public static LockScope fromId(String id) {
    for (LockScope scope : values()) {
      if (scope.id().equals(id)) {
        return scope;
      }
    }
    throw new LivegateException("the lock scope is repo or units, not " + id);
  }
}
