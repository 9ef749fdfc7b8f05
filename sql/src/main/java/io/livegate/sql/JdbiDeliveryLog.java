package io.livegate.sql;

import io.livegate.core.webhook.DeliveryLog;
import java.sql.Timestamp;
import java.time.Instant;

/** Webhook deliveries on PostgreSQL: the primary key makes the first arrival win. */
public final class JdbiDeliveryLog implements DeliveryLog {
  private final LazyJdbi jdbi;

  JdbiDeliveryLog(LazyJdbi jdbi) {
    this.jdbi = jdbi;
  }

  @Override
  public boolean firstArrival(String deliveryId, String event, Instant at) {
    return jdbi.withHandle(
            handle ->
                handle
                    .createUpdate(
                        "INSERT INTO webhook_deliveries (delivery_id, event,"
                            + " received_at) VALUES (:id, :event, :at) ON CONFLICT (delivery_id) DO NOTHING")
                    .bind("id", deliveryId)
                    .bind("event", event)
                    .bind("at", Timestamp.from(at))
                    .execute())
        == 1;
  }

  @Override
  public void forget(String deliveryId) {
    jdbi.useHandle(
        handle ->
            handle
                .createUpdate("DELETE FROM webhook_deliveries WHERE delivery_id = :id")
                .bind("id", deliveryId)
                .execute());
  }
}
