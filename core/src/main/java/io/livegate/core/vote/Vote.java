package io.livegate.core.vote;

import java.time.Instant;
import java.util.Locale;

/**
 * A voter's current choice on an execution.
 *
 * @param reason why the voter chose so, as they wrote it on the vote page; empty when not given
 */
public record Vote(long executionId, String voter, Choice choice, Instant castAt, String reason) {
  /** The longest reason kept; a longer one is cut there, so a page cannot fill the metadb. */
  public static final int MAX_REASON = 1000;

  public Vote {
    reason = reason(reason);
  }

  /** A vote without a reason. */
  public Vote(long executionId, String voter, Choice choice, Instant castAt) {
    this(executionId, voter, choice, castAt, "");
  }

  /**
   * A reason as it is kept: trimmed, control characters (line breaks included) made spaces, and at
   * most {@value #MAX_REASON} characters; null reads as empty.
   */
  public static String reason(String text) {
    if (text == null) {
      return "";
    }
    String flat = text.replaceAll("\\p{Cntrl}", " ").strip();
    return flat.length() <= MAX_REASON ? flat : flat.substring(0, MAX_REASON);
  }

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
