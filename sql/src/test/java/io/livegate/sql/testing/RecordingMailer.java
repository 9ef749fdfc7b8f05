package io.livegate.sql.testing;

import io.livegate.core.vote.Mailer;
import io.livegate.core.vote.VoteMail;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * A mailer that keeps each voter's mail instead of sending it, and refuses the voters it is told to
 * refuse, as SES refuses an unverified address: their send throws.
 */
public final class RecordingMailer implements Mailer {
  private final Map<String, VoteMail> sent = new LinkedHashMap<>();
  private final Set<String> refused = new HashSet<>();

  /** From now on, sending to {@code voter} throws. */
  public synchronized RecordingMailer refuse(String voter) {
    refused.add(voter);
    return this;
  }

  @Override
  public synchronized void send(String voter, VoteMail mail) {
    if (refused.contains(voter)) {
      throw new IllegalStateException("the mail service refused " + voter);
    }
    sent.put(voter, mail);
  }

  /** The last mail each voter was sent, in the order first sent. */
  public synchronized Map<String, VoteMail> sent() {
    return new LinkedHashMap<>(sent);
  }
}
