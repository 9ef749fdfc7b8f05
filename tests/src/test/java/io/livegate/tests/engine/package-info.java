/**
 * The engine's behaviour on its real metadb: the queue and the lock, release, outcomes and the
 * failure policies, idempotent retries, votes, and the webhook receiver, through {@code TestEngine}
 * (module sql's test jar) on an embedded PostgreSQL. module sql's own tests hold its SQL.
 */
package io.livegate.tests.engine;
