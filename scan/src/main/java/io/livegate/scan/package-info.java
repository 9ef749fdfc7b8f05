/**
 * The scans: from a merge (or from plans) to a deploy stack of units in layers, and its JSON
 * contract.
 */
package io.livegate.scan;
