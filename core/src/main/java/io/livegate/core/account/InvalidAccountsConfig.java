package io.livegate.core.account;

import io.livegate.core.LivegateException;

/** An accounts file, or a set of accounts, that livegate cannot use. */
public class InvalidAccountsConfig extends LivegateException {
  private static final long serialVersionUID = 1L;

  public InvalidAccountsConfig(String message) {
    super(message);
  }
}
