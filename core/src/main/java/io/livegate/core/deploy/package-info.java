/**
 * The deployment engine: the queue, the executions and their release, outcomes, the failure policy,
 * rollbacks. Use cases over storage ports that the metadb (module sql) implements.
 */
package io.livegate.core.deploy;
