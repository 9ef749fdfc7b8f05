package io.livegate.core.pr;

/**
 * How one unit's plan on a pull request ended.
 *
 * @param summary what the status said: the plan's counts, or the error's headline
 */
public record PlanUnitResult(String unit, boolean planned, String summary) {}
