/** livegate's domain: the root exception; the subpackages hold the model, ports and decisions. */
package io.livegate.core;
