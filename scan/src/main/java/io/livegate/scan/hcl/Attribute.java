package io.livegate.scan.hcl;

/**
 * An attribute of a body: {@code name = expression}.
 *
 * @param line the 1-based line of the attribute
 */
public record Attribute(String name, Expression value, int line) {}
