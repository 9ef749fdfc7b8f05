package io.livegate.scan.repo;

import io.livegate.core.LivegateException;

/**
 * Fetches a directory of a remote git repository at a ref, for the stack sources that live outside
 * the scanned repository. One instance serves one scan: each (url, ref) is fetched at most once
 * however many units and threads ask for it.
 */
public interface RemoteSources {

  /**
   * The files of {@code subdir} of {@code url} at {@code ref}, with paths relative to {@code
   * subdir}.
   *
   * @param url the clone URL (https, http, ssh, git or file)
   * @param ref a tag, branch or commit; {@code null} for the remote's default branch
   * @param subdir a directory of the remote repository; "" is its root
   * @throws Unavailable when it cannot be fetched or the directory is not there
   */
  SourceTree fetch(String url, String ref, String subdir);

  /**
   * A remote source that could not be fetched. The message says why; the caller names the source.
   * It never holds the user info of an http(s) URL.
   */
  class Unavailable extends LivegateException {
    private static final long serialVersionUID = 1L;

    public Unavailable(String message) {
      super(message);
    }

    public Unavailable(String message, Throwable cause) {
      super(message, cause);
    }
  }
}
