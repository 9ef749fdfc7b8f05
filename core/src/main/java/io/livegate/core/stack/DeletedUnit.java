package io.livegate.core.stack;

import java.util.List;

/**
 * A unit that existed at the base commit and is gone at the head. livegate reports it and does not
 * destroy it: its resources need an operator's decision.
 */
public record DeletedUnit(String unit, String account, List<Reason> reasons) {
  public DeletedUnit {
    reasons = List.copyOf(reasons);
  }
}
