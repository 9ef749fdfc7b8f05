/**
 * The webhook receiver: one handler for GitHub's deliveries, shared by the Lambda and {@code
 * livegate serve}. It checks the signature, drops repeats, and routes pull request events to the
 * plans, the merge gate and the deployment queue.
 */
package io.livegate.core.webhook;
