package io.livegate.scan.repo;

import java.util.ArrayList;
import java.util.List;

/**
 * One changed file between two commits.
 *
 * @param oldPath the path before the change; {@code null} for an added file
 * @param newPath the path after the change; {@code null} for a deleted file
 */
public record FileChange(Kind kind, String oldPath, String newPath) {
  public enum Kind {
    ADDED,
    MODIFIED,
    DELETED,
    RENAMED
  }

  /** The paths this change touches: both sides of a rename. */
  public List<String> paths() {
    List<String> paths = new ArrayList<>(2);
    if (oldPath != null) {
      paths.add(oldPath);
    }
    if (newPath != null && !newPath.equals(oldPath)) {
      paths.add(newPath);
    }
    return paths;
  }
}
