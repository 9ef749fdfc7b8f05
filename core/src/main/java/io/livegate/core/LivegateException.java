package io.livegate.core;

/**
 * The root of every failure livegate reports. Subclasses name the failure; the message says what
 * happened and where (file, line, unit).
 */
public class LivegateException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public LivegateException(String message) {
    super(message);
  }

  public LivegateException(String message, Throwable cause) {
    super(message, cause);
  }
}
