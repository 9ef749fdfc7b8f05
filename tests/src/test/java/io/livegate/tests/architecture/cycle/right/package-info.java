/** One side of the package cycle in {@code io.livegate.tests.architecture.cycle}. */
package io.livegate.tests.architecture.cycle.right;
