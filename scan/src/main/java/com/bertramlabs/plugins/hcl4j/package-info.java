/** A single bridge class that exposes hcl4j's package-private lexer to livegate's own evaluator. */
package com.bertramlabs.plugins.hcl4j;
