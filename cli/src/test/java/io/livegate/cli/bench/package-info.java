/**
 * Benchmarks of the local runtime, run on demand through the {@code bench} profile rather than as
 * tests (docs/benchmarks.md).
 */
package io.livegate.cli.bench;
