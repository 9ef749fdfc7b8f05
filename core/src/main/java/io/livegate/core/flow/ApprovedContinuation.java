package io.livegate.core.flow;

import java.util.ArrayList;
import java.util.List;

/**
 * Judges what an interrupted apply left by the voters' intent: a change still to make is approved
 * when it is an approved change, or the rest of one as terraform continues it after the
 * interruption. A replace is two steps, each persisted on its own: a delete-then-create ({@code
 * delete,create}) whose delete is done continues with its {@code create}; a create-before-destroy
 * ({@code create,delete}) whose create is done continues with the {@code delete} of the deposed
 * object. Anything else (a new address, another action, a step the approved change does not hold)
 * goes back to the voters.
 *
 * <p>Changes are written as {@link PlanJson#changes} writes them: {@code ADDRESS: ACTION[,ACTION]}.
 */
public final class ApprovedContinuation {
  private ApprovedContinuation() {}

  /** The changes in {@code left} that the approved plan's changes neither hold nor continue. */
  public static List<String> unapproved(List<String> approved, List<String> left) {
    List<String> outside = new ArrayList<>();
    for (String change : left) {
      if (!approved.contains(change) && !continuesAnApproved(approved, change)) {
        outside.add(change);
      }
    }
    return outside;
  }

  private static boolean continuesAnApproved(List<String> approved, String change) {
    int split = change.lastIndexOf(": ");
    if (split < 0) {
      return false;
    }
    String address = change.substring(0, split);
    String actions = change.substring(split + 2);
    String rest =
        switch (actions) {
          case "create" -> "delete,create";
          case "delete" -> "create,delete";
          default -> null;
        };
    return rest != null && approved.contains(address + ": " + rest);
  }
}
