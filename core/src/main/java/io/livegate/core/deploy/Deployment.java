package io.livegate.core.deploy;

import java.time.Instant;

/**
 * One merged pull request's deployment.
 *
 * @param queuePosition the order of merges: lower starts first
 * @param stackStored whether its executions are stored; a merge is queued before
 *     create-deploy-stack scans it
 * @param startedAt {@code null} while queued
 * @param finishedAt {@code null} while unfinished
 */
public record Deployment(
    long id,
    MergedPullRequest pullRequest,
    DeploymentStatus status,
    long queuePosition,
    boolean stackStored,
    Instant createdAt,
    Instant startedAt,
    Instant finishedAt) {}
