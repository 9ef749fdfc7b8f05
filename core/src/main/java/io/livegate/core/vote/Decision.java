package io.livegate.core.vote;

import java.util.Locale;

/** The outcome of an execution's vote. */
public enum Decision {
  APPROVED,
  REJECTED;

  public String id() {
    return name().toLowerCase(Locale.ROOT);
  }

  public static Decision fromId(String id) {
    return valueOf(id.toUpperCase(Locale.ROOT));
  }
}
