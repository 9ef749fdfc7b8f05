package io.livegate.core;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectWriter;

/**
 * The one Jackson mapper of a JVM (ADR 6): every class on a Lambda's class path reads and writes
 * JSON through it, so a cold handler builds Jackson's caches once, not once per class. It is
 * configured nowhere else; output that people read is indented through {@link #INDENTED}, a writer
 * of the same mapper.
 */
public final class Jackson {
  public static final ObjectMapper MAPPER = new ObjectMapper();

  /** The shared mapper's writer that indents. */
  public static final ObjectWriter INDENTED = MAPPER.writerWithDefaultPrettyPrinter();

  private Jackson() {}
}
