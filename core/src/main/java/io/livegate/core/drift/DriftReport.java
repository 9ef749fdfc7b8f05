package io.livegate.core.drift;

import java.util.List;

/**
 * What a drift run found at one commit.
 *
 * @param head the commit planned
 * @param planned how many units were planned (drifted, clean and failed)
 * @param drifted the units whose plan shows changes, sorted by unit
 * @param errors the units that could not be planned, sorted by unit
 */
public record DriftReport(
    String head, int planned, List<DriftedUnit> drifted, List<DriftError> errors) {
  public DriftReport {
    drifted = List.copyOf(drifted);
    errors = List.copyOf(errors);
  }

  /**
   * A unit whose plan shows changes.
   *
   * @param changes each changed resource with its actions, e.g. {@code terraform_data.a: update}
   */
  public record DriftedUnit(String unit, String account, List<String> changes) {
    public DriftedUnit {
      changes = List.copyOf(changes);
    }
  }

  /** A unit that could not be planned, with why. */
  public record DriftError(String unit, String account, String error) {}

  /** No drift and no error: the only answer that means "in sync". */
  public boolean inSync() {
    return drifted.isEmpty() && errors.isEmpty();
  }
}
