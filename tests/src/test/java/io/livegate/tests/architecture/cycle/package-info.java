/**
 * Two packages that depend on each other: the fixture on which ArchitectureTest shows that its
 * no-cycles rule fails.
 */
package io.livegate.tests.architecture.cycle;
