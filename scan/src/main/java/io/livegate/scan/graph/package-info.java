/** The dependency graph's order: layers, account barriers and cycle reports. */
package io.livegate.scan.graph;
