package io.livegate.core.admin;

import io.livegate.core.LivegateException;

/** An admin command that cannot be run as given: the message names the field and what is wrong. */
public class InvalidAdminCommand extends LivegateException {
  private static final long serialVersionUID = 1L;

  public InvalidAdminCommand(String message) {
    super(message);
  }
}
