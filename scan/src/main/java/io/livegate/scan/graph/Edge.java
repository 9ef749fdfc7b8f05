package io.livegate.scan.graph;

/**
 * A "must finish before" edge: {@code from} waits for {@code to}.
 *
 * @param declaredAt where the edge comes from, for cycle messages
 */
public record Edge(String from, String to, String declaredAt) {}
