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
 * @param rangeBase the commit its stack was scanned from, up to the merge commit ({@link
 *     TrunkOrder}); {@code null} while not stored, or when stored before ranges were recorded
 * @param coveredBy the deployment whose range already deployed this merge, delivered late; {@code
 *     null} when it was not covered
 */
public record Deployment(
    long id,
    MergedPullRequest pullRequest,
    DeploymentStatus status,
    long queuePosition,
    boolean stackStored,
    Instant createdAt,
    Instant startedAt,
    Instant finishedAt,
    String rangeBase,
    Long coveredBy) {}
