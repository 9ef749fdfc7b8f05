/**
 * The local runtime: an embedded metadb in a state directory, the in-process deploy flow, local
 * terraform or terragrunt processes, the loopback vote and status pages, and a mail outbox.
 */
package io.livegate.cli.local;
