/**
 * livegate's domain: the root exception and the one Jackson mapper; the subpackages hold the model,
 * ports and decisions.
 */
package io.livegate.core;
