/** What the webhook receiver needs from storage: the log of deliveries already handled. */
package io.livegate.core.webhook;
