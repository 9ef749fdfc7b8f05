package io.livegate.cli.local;

import io.livegate.core.LivegateException;
import io.livegate.core.runner.ResourceShortage;

/**
 * A run stopped because a resource of the machine ran out: nothing was recorded failed for it, and
 * {@code livegate resume} after the fix finishes the deployment.
 */
public final class ResourcesRanOut extends LivegateException {
  private final transient ResourceShortage shortage;

  public ResourcesRanOut(ResourceShortage shortage) {
    super(
        shortage.describe()
            + "; no unit was recorded failed for it, and what finished is recorded.");
    this.shortage = shortage;
  }

  public ResourceShortage shortage() {
    return shortage;
  }
}
