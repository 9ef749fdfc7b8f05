package io.livegate.core.runner;

import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * A failure that says a resource of the machine ran out (disk space, memory, file descriptors, the
 * metadb's connections), told from the error text that terraform, the JVM or PostgreSQL printed.
 * Such a failure is the machine's, not the unit's: the unit is left at its step, and the run that
 * follows the fix finishes it, instead of recording it failed.
 *
 * @param resource what ran out, e.g. {@code disk space}
 * @param line the line of the error that says so, which names the file or operation where known
 */
public record ResourceShortage(String resource, String line) {
  private record Sign(String text, String resource) {}

  /** How each resource's exhaustion reads in Linux's errno texts, the JVM's and PostgreSQL's. */
  private static final List<Sign> SIGNS =
      List.of(
          new Sign("no space left on device", "disk space"),
          new Sign("disk quota exceeded", "disk space"),
          new Sign("too many open files", "file descriptors"),
          new Sign("cannot allocate memory", "memory"),
          new Sign("java.lang.outofmemoryerror", "memory"),
          new Sign("sorry, too many clients already", "the metadb's connections"),
          new Sign("remaining connection slots are reserved", "the metadb's connections"));

  /** The shortage {@code error} reports, if it reports one. */
  public static Optional<ResourceShortage> in(String error) {
    if (error == null) {
      return Optional.empty();
    }
    for (String line : error.split("\n")) {
      String lower = line.toLowerCase(Locale.ROOT);
      for (Sign sign : SIGNS) {
        if (lower.contains(sign.text())) {
          return Optional.of(new ResourceShortage(sign.resource(), line.strip()));
        }
      }
    }
    return Optional.empty();
  }

  /** What ran out and the error that says where, for a message. */
  public String describe() {
    return "ran out of " + resource + " (" + line + ")";
  }
}
