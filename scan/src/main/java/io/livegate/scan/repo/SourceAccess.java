package io.livegate.scan.repo;

import io.livegate.core.LivegateException;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * What livegate's own fetch of a stack's remote sources may reach. It runs in livegate's process,
 * outside the sandbox, for code that is hostile until voted (a pull request's, a merge's), so it
 * gets no more than the operator granted: a {@code file://} source (any repository of the host, the
 * state directory's too) only with {@code allowLocal}, and the operator's credentials ({@code
 * ~/.netrc}, {@code ~/.ssh}) only for the hosts in {@code credentialHosts}.
 *
 * @param cache where fetched repositories are kept between scans: inside the state directory, which
 *     the sandbox hides
 * @param allowLocal whether {@code file://} sources are fetched ({@code --allow-local-sources})
 * @param credentialHosts the hosts that {@code ~/.netrc} and {@code ~/.ssh} sign in to, lower case
 *     ({@code --source-credentials-host})
 */
public record SourceAccess(Path cache, boolean allowLocal, Set<String> credentialHosts) {
  /** The name of the cache's directory inside a state directory. */
  public static final String CACHE_DIRECTORY = "sources";

  public SourceAccess {
    Objects.requireNonNull(cache, "cache");
    cache = cache.toAbsolutePath().normalize();
    credentialHosts =
        credentialHosts.stream()
            .map(host -> host.toLowerCase(Locale.ROOT))
            .collect(Collectors.toUnmodifiableSet());
    for (String host : credentialHosts) {
      if (host.isBlank() || host.contains("/") || host.contains("@")) {
        throw new LivegateException(
            "a source credentials host is a host name such as github.com, not '" + host + "'");
      }
    }
  }

  /** The cache of {@code stateDirectory}, no local sources, no credentials: the default. */
  public static SourceAccess in(Path stateDirectory) {
    return new SourceAccess(stateDirectory.resolve(CACHE_DIRECTORY), false, Set.of());
  }

  /** Whether {@code host} (of a source's URL) may get the operator's credentials. */
  public boolean signsInTo(String host) {
    return host != null && credentialHosts.contains(host.toLowerCase(Locale.ROOT));
  }
}
