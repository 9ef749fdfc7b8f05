package io.livegate.core.pr;

import io.livegate.core.deploy.CommitStatusPublisher;

/** A commit status as livegate last posted it. */
public record PostedStatus(
    String repository,
    String sha,
    String context,
    CommitStatusPublisher.State state,
    String description,
    String targetUrl) {}
