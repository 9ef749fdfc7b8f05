package io.livegate.core;

import java.util.ArrayDeque;
import java.util.Deque;

/**
 * Repo-relative paths: '/'-separated, with no leading "./", no trailing "/", and "" for the root.
 * String arithmetic rather than {@link java.nio.file.Path}, so that PR-controlled names are never
 * interpreted by the host filesystem.
 */
public final class RepoPaths {
  private RepoPaths() {}

  /**
   * Normalises a repo-relative path, resolving "." and "..".
   *
   * @return the normalised path, or {@code null} when ".." climbs above the root
   */
  public static String normalize(String path) {
    if (isNormal(path)) {
      return path;
    }
    Deque<String> parts = new ArrayDeque<>();
    for (String part : path.split("/", -1)) {
      if (part.isEmpty() || part.equals(".")) {
        continue;
      }
      if (part.equals("..")) {
        if (parts.isEmpty()) {
          return null;
        }
        parts.removeLast();
      } else {
        parts.addLast(part);
      }
    }
    return String.join("/", parts);
  }

  /** Whether no segment of {@code path} is empty, "." or "..": the common case, checked cheaply. */
  private static boolean isNormal(String path) {
    int start = 0;
    int length = path.length();
    if (length == 0) {
      return true;
    }
    while (start <= length) {
      int end = path.indexOf('/', start);
      if (end < 0) {
        end = length;
      }
      int segment = end - start;
      if (segment == 0
          || (segment == 1 && path.charAt(start) == '.')
          || (segment == 2 && path.charAt(start) == '.' && path.charAt(start + 1) == '.')) {
        return false;
      }
      start = end + 1;
    }
    return true;
  }

  /** {@code dir/child}, where either may be the root "". */
  public static String join(String dir, String child) {
    if (dir.isEmpty()) {
      return child;
    }
    return child.isEmpty() ? dir : dir + "/" + child;
  }

  /** The directory holding {@code path}; "" for a top-level entry; {@code null} for the root. */
  public static String parent(String path) {
    if (path.isEmpty()) {
      return null;
    }
    int slash = path.lastIndexOf('/');
    return slash < 0 ? "" : path.substring(0, slash);
  }

  public static String fileName(String path) {
    return path.substring(path.lastIndexOf('/') + 1);
  }

  /**
   * Whether the last part of {@code path} is {@code name}: {@code fileName(path).equals(name)}
   * without making the substring, for scans that test every path of a tree.
   */
  public static boolean hasFileName(String path, String name) {
    int start = path.length() - name.length();
    return path.endsWith(name) && (start == 0 || (start > 0 && path.charAt(start - 1) == '/'));
  }

  /** Whether {@code path} is {@code dir} itself or lies below it. */
  public static boolean isWithin(String path, String dir) {
    return dir.isEmpty() || path.equals(dir) || path.startsWith(dir + "/");
  }

  /** The relative path that leads from directory {@code from} to {@code to}, or "." if equal. */
  public static String relative(String from, String to) {
    String[] fromParts = from.isEmpty() ? new String[0] : from.split("/");
    String[] toParts = to.isEmpty() ? new String[0] : to.split("/");
    int common = 0;
    while (common < fromParts.length
        && common < toParts.length
        && fromParts[common].equals(toParts[common])) {
      common++;
    }
    StringBuilder result = new StringBuilder();
    for (int i = common; i < fromParts.length; i++) {
      result.append(result.length() == 0 ? "" : "/").append("..");
    }
    for (int i = common; i < toParts.length; i++) {
      result.append(result.length() == 0 ? "" : "/").append(toParts[i]);
    }
    return result.length() == 0 ? "." : result.toString();
  }
}
