package io.livegate.core.vote;

import io.livegate.core.flow.FlowDecision;
import java.util.Locale;

/** The outcome of an execution's vote. */
public enum Decision {
  APPROVED,
  REJECTED;

  public String id() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** How the deploy flow's Decide reads it. */
  public FlowDecision flowDecision() {
    return this == APPROVED ? FlowDecision.APPROVED : FlowDecision.REJECTED;
  }

  public static Decision fromId(String id) {
    return valueOf(id.toUpperCase(Locale.ROOT));
  }
}
