package io.livegate.core.vote;

import java.time.Instant;
import java.util.Locale;

/** A voter's current choice on an execution. */
public record Vote(long executionId, String voter, Choice choice, Instant castAt) {
  public enum Choice {
    APPROVE,
    REJECT;

    public String id() {
      return name().toLowerCase(Locale.ROOT);
    }

    public static Choice fromId(String id) {
      return valueOf(id.toUpperCase(Locale.ROOT));
    }
  }
}
