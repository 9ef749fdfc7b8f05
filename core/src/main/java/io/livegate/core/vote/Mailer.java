package io.livegate.core.vote;

/** Sends one vote request to one voter (SES on AWS, the outbox locally). */
public interface Mailer {
  /**
   * @throws RuntimeException when this voter's message cannot be sent; the others are still sent
   */
  void send(String voter, VoteMail mail);
}
