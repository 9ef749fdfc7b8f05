/**
 * livegate's domain: the root exception, the one Jackson mapper and the small helpers every package
 * uses (escaping, repo-relative paths, named daemon threads); the subpackages hold the model, ports
 * and decisions.
 */
package io.livegate.core;
