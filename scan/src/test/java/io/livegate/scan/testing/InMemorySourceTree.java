package io.livegate.scan.testing;

import io.livegate.core.RepoPaths;
import io.livegate.scan.repo.SourceTree;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Map;

/** A {@link SourceTree} held in memory, for tests of config reading that need no git history. */
public final class InMemorySourceTree implements SourceTree {
  /** The root that {@code get_repo_root()} returns and absolute paths are read against. */
  public static final String ROOT = "/live";

  private final Map<String, String> files = new LinkedHashMap<>();

  /** Adds or replaces the file at the repo-relative {@code path}. */
  public InMemorySourceTree with(String path, String content) {
    files.put(path, content);
    return this;
  }

  @Override
  public String root() {
    return ROOT;
  }

  @Override
  public Collection<String> files() {
    return files.keySet();
  }

  @Override
  public boolean isFile(String path) {
    return files.containsKey(path);
  }

  @Override
  public boolean isDirectory(String path) {
    return files.keySet().stream()
        .anyMatch(file -> !file.equals(path) && RepoPaths.isWithin(file, path));
  }

  @Override
  public String read(String path) {
    String content = files.get(path);
    if (content == null) {
      throw new MissingFile(path);
    }
    return content;
  }
}
