package io.livegate.core.stack;

/**
 * Why a unit is in a deploy stack.
 *
 * @param path the changed file, or the unit depended on; {@code null} where the kind says it all
 * @param via for {@link Kind#READS_CHANGED_FILE}: how the unit reads the file (e.g. "include")
 */
public record Reason(Kind kind, String path, String via) {
  /** The kinds, with the names the JSON contract uses. */
  public enum Kind {
    /** A file inside the unit changed. */
    CHANGED_FILE("changed-file"),
    /** A file the unit includes or reads changed. */
    READS_CHANGED_FILE("reads-changed-file"),
    /** A unit it depends on is in the stack. */
    DEPENDS_ON("depends-on"),
    /** Its plan shows changes (plan scan). */
    PLAN_HAS_CHANGES("plan-has-changes"),
    /** Every unit was asked for ({@code --all}). */
    ALL_UNITS("all-units"),
    /** A file of a unit that no longer exists changed (deleted units only). */
    DELETED_FILE("deleted-file");

    private final String id;

    Kind(String id) {
      this.id = id;
    }

    public String id() {
      return id;
    }
  }

  public static Reason changedFile(String path) {
    return new Reason(Kind.CHANGED_FILE, path, null);
  }

  public static Reason readsChangedFile(String path, String via) {
    return new Reason(Kind.READS_CHANGED_FILE, path, via);
  }

  public static Reason dependsOn(String unit) {
    return new Reason(Kind.DEPENDS_ON, unit, null);
  }

  /** One line for people: "changed file a/main.tf", "depends on a", ... */
  public String describe() {
    return switch (kind) {
      case CHANGED_FILE -> "changed file " + path;
      case READS_CHANGED_FILE -> "reads changed file " + path + " (" + via + ")";
      case DEPENDS_ON -> "depends on " + path;
      case PLAN_HAS_CHANGES -> "plan shows changes";
      case ALL_UNITS -> "all units requested";
      case DELETED_FILE -> "file of a removed unit changed: " + path;
    };
  }
}
