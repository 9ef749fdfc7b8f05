package io.livegate.core.webhook;

import io.livegate.core.LivegateException;
import java.util.function.Supplier;

/**
 * What the receiver is configured with.
 *
 * @param secret the webhook secret's bytes; read on the first delivery, so a Lambda can fetch it
 *     lazily
 * @param repository the one repository it serves, e.g. "acme/infrastructure-live"
 * @param trunk the branch that deploys, e.g. "main"; pull requests into other branches are ignored
 * @param allowForkPullRequests whether pull requests from forks get plans; off by default, since a
 *     plan runs the pull request's code
 */
public record WebhookSettings(
    Supplier<byte[]> secret, String repository, String trunk, boolean allowForkPullRequests) {
  public WebhookSettings {
    if (repository == null || !repository.matches("[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+")) {
      throw new LivegateException(
          "the webhook receiver needs its repository as owner/name, not " + repository);
    }
    if (trunk == null || trunk.isBlank()) {
      throw new LivegateException("the webhook receiver needs the trunk branch's name");
    }
  }
}
