package io.livegate.core.pr;

import io.livegate.core.LivegateException;
import io.livegate.core.RepoPaths;
import java.util.Objects;

/**
 * Plan one unit of a pull request.
 *
 * @param unit the unit's repo-relative directory, as the scan named it
 */
public record PlanUnitCommand(PullRequestHead head, String unit) {
  public PlanUnitCommand {
    Objects.requireNonNull(head, "head");
    if (unit == null || unit.isBlank() || unit.indexOf('\0') >= 0) {
      throw new LivegateException("a unit to plan needs its repo-relative directory");
    }
    if (unit.startsWith("/") || !unit.equals(RepoPaths.normalize(unit)) || unit.isEmpty()) {
      throw new LivegateException(
          "the unit '" + unit + "' must be a normalised path inside the repository");
    }
  }
}
