package io.livegate.core.stack;

import java.util.List;

/**
 * A unit that existed at the base commit and is gone at the head. When its account destroys deleted
 * units ({@code destroy_deleted}, the default), the deployment destroys its resources through plan,
 * vote and apply, from a checkout of the base commit; otherwise it is only reported.
 *
 * @param dependsOn the other deleted units it depended on at the base, sorted: they are destroyed
 *     after it
 * @param formerDependents the units of the stack that depended on it at the base and no longer do,
 *     sorted: their applies wait for its destroy
 * @param destroy whether the deployment destroys it
 */
public record DeletedUnit(
    String unit,
    String account,
    List<Reason> reasons,
    List<String> dependsOn,
    List<String> formerDependents,
    boolean destroy) {
  public DeletedUnit {
    reasons = List.copyOf(reasons);
    dependsOn = List.copyOf(dependsOn);
    formerDependents = List.copyOf(formerDependents);
  }

  /** A deleted unit as the change set finds it: reported, not yet ordered for a destroy. */
  public static DeletedUnit found(String unit, String account, List<Reason> reasons) {
    return new DeletedUnit(unit, account, reasons, List.of(), List.of(), false);
  }
}
