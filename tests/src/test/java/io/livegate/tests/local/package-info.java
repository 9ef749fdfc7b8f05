/** Drives the local runtime (the cli's executor, vote server and outbox) in process. */
package io.livegate.tests.local;
