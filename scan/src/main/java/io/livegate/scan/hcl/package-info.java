/**
 * HCL reading: livegate's own HCL2 native-syntax parser (every node with its line and column),
 * Terraform's value model and pure functions, and a lazy evaluator in which anything that cannot be
 * known at scan time becomes an {@link io.livegate.scan.hcl.Unknown} rather than an error.
 */
package io.livegate.scan.hcl;
