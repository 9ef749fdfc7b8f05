package io.livegate.scan;

import io.livegate.core.LivegateException;

/** A scan whose every unit an {@code exclude} or {@code skip} leaves out, so it deploys nothing. */
public final class EveryUnitLeftOut extends LivegateException {
  private static final long serialVersionUID = 1L;

  EveryUnitLeftOut(String message) {
    super(message);
  }
}
