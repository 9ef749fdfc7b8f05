package io.livegate.scan.repo;

import io.livegate.core.RepoPaths;
import java.util.Collection;

/**
 * The files of one revision of a live repository. Paths are repo-relative (see {@link RepoPaths}).
 */
public interface SourceTree {

  /**
   * The absolute path that stands for the repository root: what {@code get_repo_root()} returns and
   * what absolute paths in configs are read against.
   */
  String root();

  /** Every file path, in no particular order. */
  Collection<String> files();

  boolean isFile(String path);

  /** Whether {@code path} is a directory that holds at least one file; "" is the root. */
  boolean isDirectory(String path);

  /**
   * The file's text, read as UTF-8.
   *
   * @throws MissingFile when there is no such file
   */
  String read(String path);

  /**
   * The file's bytes, as committed: what writing the file out needs, where {@link #read} would
   * mangle a file that is not UTF-8 text.
   *
   * @throws MissingFile when there is no such file
   */
  default byte[] bytes(String path) {
    return read(path).getBytes(java.nio.charset.StandardCharsets.UTF_8);
  }

  /**
   * Whether the file is committed executable (git's mode 100755): a generated unit keeps the mode,
   * as terragrunt's copy of a directory does, so that its scripts and plugins still run.
   */
  default boolean isExecutable(String path) {
    return false;
  }

  /** A path that names no file in the tree. */
  class MissingFile extends io.livegate.core.LivegateException {
    private static final long serialVersionUID = 1L;

    public MissingFile(String path) {
      super("no file " + path + " in the repository");
    }
  }
}
