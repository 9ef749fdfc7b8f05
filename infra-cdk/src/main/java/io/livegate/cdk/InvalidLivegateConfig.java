package io.livegate.cdk;

import io.livegate.core.LivegateException;

/** A configuration the CDK app cannot deploy; the message names the source and the field. */
public class InvalidLivegateConfig extends LivegateException {
  private static final long serialVersionUID = 1L;

  public InvalidLivegateConfig(String message) {
    super(message);
  }
}
