package io.livegate.core.deploy;

/**
 * The contexts and descriptions of livegate's commit statuses, shared by every runtime that posts
 * them: {@code livegate/deploy} and {@code livegate/deploy: <unit>} after a merge, {@code
 * livegate/plan} and {@code livegate/plan: <unit>} on a pull request.
 */
public final class StatusTexts {
  public static final String DEPLOY = "livegate/deploy";
  public static final String PLAN = "livegate/plan";

  private StatusTexts() {}

  /**
   * {@code livegate/deploy: <unit>}: one unit's plan, vote and apply in a deployment; a rollback's
   * has its own context, {@code livegate/deploy: <unit> (rollback)}, so that it never hides the
   * outcome of the execution it undoes.
   */
  public static String deployContext(String unit, boolean rollback) {
    return DEPLOY + ": " + unit + (rollback ? " (rollback)" : "");
  }

  /** {@code livegate/plan: <unit>}: one unit's plan on a pull request. */
  public static String planContext(String unit) {
    return PLAN + ": " + unit;
  }

  /** "+2 ~0 -1", or "no changes", with the new providers if any. */
  public static String summary(PlanSummary summary) {
    String counts = summary.hasChanges() ? summary.counts() : "no changes";
    return summary.newProviders().isEmpty()
        ? counts
        : counts + ", new providers " + String.join(", ", summary.newProviders());
  }

  /**
   * The line of a failure that says what went wrong: terraform's first {@code Error:} line without
   * its box drawing, else the first line that is not blank.
   */
  public static String headline(String error) {
    if (error == null || error.isBlank()) {
      return "failed";
    }
    String first = null;
    for (String line : error.split("\\R")) {
      String text = line.replaceAll("^[\\s│╷╵|]+", "").strip();
      if (text.isEmpty()) {
        continue;
      }
      if (text.startsWith("Error:")) {
        return text;
      }
      if (first == null) {
        first = text;
      }
    }
    return first;
  }
}
