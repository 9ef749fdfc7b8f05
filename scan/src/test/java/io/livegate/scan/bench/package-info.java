/**
 * Benchmarks run on demand with the Maven profile {@code bench}, not by the test suite: a generator
 * of synthetic live repositories and the graph-scan benchmark (see docs/benchmarks.md).
 */
package io.livegate.scan.bench;
