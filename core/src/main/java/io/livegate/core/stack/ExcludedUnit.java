package io.livegate.core.stack;

/**
 * A unit that the merge changed, or that depends on one that changed, and that is left out of the
 * deploy stack because its config says so ({@code exclude}, {@code skip}, or a dependent's {@code
 * exclude_dependencies}).
 *
 * @param reason why it is left out, naming the file and line that decide it
 */
public record ExcludedUnit(String unit, String account, String reason) {}
