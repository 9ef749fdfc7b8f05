package io.livegate.core.runner;

import java.util.Optional;

/**
 * Where the output a command keeps beside its PID file (how an apply ended) outlives the machine
 * that ran it. Locally the state directory already outlives livegate; on AWS each Apply task runs
 * in a container of its own, so the retry of a killed task would start without the output that says
 * the killed attempt's terraform had failed, and would apply again what failed. The runtime keeps
 * the files elsewhere (S3) and gives them back to the retry.
 */
public interface KeptOutputs {
  /**
   * Keeps {@code content} as file {@code file} of the command whose kept output is {@code name}.
   */
  void keep(String name, String file, byte[] content);

  /** The file kept by {@link #keep}, or empty when none was. */
  Optional<byte[]> read(String name, String file);
}
