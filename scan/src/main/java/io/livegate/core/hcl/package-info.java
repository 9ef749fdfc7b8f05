/**
 * HCL reading: hcl4j's syntax tree, a structural check that hcl4j's lexer lacks, and livegate's own
 * lazy evaluator, in which anything that cannot be known at scan time becomes an {@link
 * io.livegate.core.hcl.Unknown} rather than an error.
 */
package io.livegate.core.hcl;
