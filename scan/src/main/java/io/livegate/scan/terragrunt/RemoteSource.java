package io.livegate.scan.terragrunt;

import io.livegate.core.RepoPaths;
import io.livegate.scan.repo.GitSourceCache;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A {@code unit} or {@code stack} source outside the repository, read from terragrunt's (go-getter)
 * syntax: an optional {@code git::} forcing prefix, a URL ({@code https://}, {@code ssh://}, {@code
 * git://}, {@code file://}), the {@code github.com/org/repo} shorthand (https) or the scp-like
 * {@code git@host:org/repo.git} (ssh), an optional {@code //subdir} and {@code ?ref=}.
 *
 * @param url the clone URL
 * @param subdir the directory inside the repository; "" is its root
 * @param ref the tag, branch or commit; {@code null} for the default branch
 */
record RemoteSource(String url, String subdir, String ref) {
  private static final Pattern FORCED = Pattern.compile("([A-Za-z0-9]+)::(.*)", Pattern.DOTALL);
  private static final Pattern SCHEME = Pattern.compile("([A-Za-z][A-Za-z0-9+.-]*)://.*");
  private static final Pattern USER_INFO = Pattern.compile("://[^/@?#]+@");
  private static final Pattern SCP = Pattern.compile("([A-Za-z0-9._-]+@[A-Za-z0-9.-]+):(.+)");

  /** A remote source that livegate does not fetch; the message says why. */
  static final class NotSupported extends RuntimeException {
    private static final long serialVersionUID = 1L;

    NotSupported(String message) {
      super(message, null, false, false);
    }
  }

  /**
   * The remote source {@code source} names, or empty when it is a path (in the repository).
   *
   * @throws NotSupported for a remote kind other than git (s3::, gcs::, hg::, http archives,
   *     tfr://, bitbucket.org/...) or a malformed git source
   */
  static Optional<RemoteSource> parse(String source) {
    int query = source.indexOf('?');
    String location = query < 0 ? source : source.substring(0, query);
    boolean remote =
        location.contains("::")
            || location.contains("://")
            || SCP.matcher(location).matches()
            || location.startsWith("github.com/")
            || location.startsWith("bitbucket.org/");
    if (!remote) {
      return Optional.empty();
    }
    String parameters = query < 0 ? null : source.substring(query + 1);
    Matcher forced = FORCED.matcher(location);
    boolean git = false;
    if (forced.matches()) {
      if (!forced.group(1).equals("git")) {
        throw notSupported(forced.group(1) + "::");
      }
      git = true;
      location = forced.group(2);
    }
    if (location.startsWith("github.com/")) {
      String[] split = splitSubdir(location, 0);
      String[] parts = split[0].split("/");
      if (parts.length != 3) {
        throw new NotSupported(
            "a github.com source names github.com/<org>/<repo>, not '" + split[0] + "'");
      }
      String repo = split[0].endsWith(".git") ? split[0] : split[0] + ".git";
      return Optional.of(new RemoteSource("https://" + repo, split[1], ref(parameters)));
    }
    Matcher scp = SCP.matcher(location);
    if (scp.matches() && !location.contains("://")) {
      String[] split = splitSubdir(scp.group(2), 0);
      return Optional.of(
          new RemoteSource("ssh://" + scp.group(1) + "/" + split[0], split[1], ref(parameters)));
    }
    Matcher scheme = SCHEME.matcher(location);
    if (!scheme.matches()) {
      throw notSupported(location);
    }
    String kind = scheme.group(1).toLowerCase(Locale.ROOT);
    boolean fetchable =
        git ? Set.of("https", "http", "ssh", "git", "file").contains(kind) : kind.equals("git");
    if (!fetchable) {
      throw notSupported(kind + "://" + (git ? "" : " (without git::, an archive download)"));
    }
    String[] split = splitSubdir(location, location.indexOf("://") + 3);
    return Optional.of(new RemoteSource(split[0], split[1], ref(parameters)));
  }

  /**
   * The address of a file of this source, as go-getter would write it: {@code
   * url//subdir/file?ref=ref}, without user info.
   */
  String address(String file) {
    String inside = RepoPaths.join(subdir, file);
    return GitSourceCache.redact(url)
        + (inside.isEmpty() ? "" : "//" + inside)
        + (ref == null ? "" : "?ref=" + ref);
  }

  /** {@code source} as an error may show it: any user info after a {@code ://} left out. */
  static String withoutUserInfo(String source) {
    return USER_INFO.matcher(source).replaceAll("://");
  }

  /** The {@code ref} of a query string ({@code null} when there is none). */
  private static String ref(String query) {
    if (query == null) {
      return null;
    }
    String ref = null;
    for (String parameter : query.split("&")) {
      int equals = parameter.indexOf('=');
      String name = equals < 0 ? parameter : parameter.substring(0, equals);
      String value = equals < 0 ? "" : parameter.substring(equals + 1);
      switch (name) {
        case "ref" -> {
          if (value.isEmpty()) {
            throw new NotSupported("?ref= is empty");
          }
          ref = value;
        }
        case "depth" -> {
          // Sources are always fetched shallow where the ref allows it.
        }
        default ->
            throw new NotSupported(
                "the query parameter '" + name + "' is not supported (only ref and depth are)");
      }
    }
    return ref;
  }

  /** The part before go-getter's {@code //} separator (searched from {@code from}), and after. */
  private static String[] splitSubdir(String location, int from) {
    int separator = location.indexOf("//", from);
    if (separator < 0) {
      return new String[] {location, ""};
    }
    String subdir = RepoPaths.normalize(location.substring(separator + 2));
    if (subdir == null) {
      throw new NotSupported(
          "the subdirectory '" + location.substring(separator + 2) + "' leaves the repository");
    }
    return new String[] {location.substring(0, separator), subdir};
  }

  private static NotSupported notSupported(String kind) {
    return new NotSupported(
        "source kind not supported: "
            + kind
            + "; livegate fetches git sources only (git::<url>, github.com/<org>/<repo>,"
            + " git@<host>:<path>)");
  }
}
