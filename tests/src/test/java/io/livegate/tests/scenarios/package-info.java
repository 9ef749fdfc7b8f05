/**
 * The deployments that the end-to-end suites run: small live repositories with real terraform, and
 * the conformance table of scenarios with the outcome each must reach on every runtime.
 */
package io.livegate.tests.scenarios;
