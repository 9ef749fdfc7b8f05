package io.livegate.core;

/** Hears about long work as it happens, e.g. to print progress lines. */
@FunctionalInterface
public interface ProgressListener {
  void progress(String message);

  static ProgressListener silent() {
    return message -> {};
  }
}
