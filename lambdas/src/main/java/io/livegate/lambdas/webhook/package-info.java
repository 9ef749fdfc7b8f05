/** The webhook-receiver Lambda: GitHub's deliveries through a Function URL. */
package io.livegate.lambdas.webhook;
