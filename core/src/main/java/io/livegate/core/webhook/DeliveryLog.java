package io.livegate.core.webhook;

import java.time.Instant;

/** Remembers the webhook deliveries already handled, so a repeated delivery does nothing. */
public interface DeliveryLog {
  /**
   * Records {@code deliveryId} unless it was recorded before.
   *
   * @return true for the first arrival, false for a repeat
   */
  boolean firstArrival(String deliveryId, String event, Instant at);

  /**
   * Forgets {@code deliveryId}, so that GitHub's redelivery of a request that failed half-way is
   * handled rather than answered as a duplicate.
   */
  void forget(String deliveryId);
}
