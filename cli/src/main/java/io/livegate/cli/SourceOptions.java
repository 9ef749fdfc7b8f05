package io.livegate.cli;

import io.livegate.scan.repo.SourceAccess;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import picocli.CommandLine.Option;

/**
 * What livegate's fetch of remote stack sources may reach, for every command that reads the
 * repository's stacks: the code being deployed names the sources, so the operator grants the rest
 * (docs/security.md).
 */
final class SourceOptions {
  @Option(
      names = "--allow-local-sources",
      description =
          "Fetch git::file:// stack sources, repositories of this machine outside the one being"
              + " deployed. Off by default: the code being deployed names its sources, and livegate"
              + " fetches them outside the sandbox (docs/security.md).")
  boolean allowLocalSources;

  @Option(
      names = "--source-credentials-host",
      paramLabel = "HOST",
      description =
          "A host whose stack sources are fetched with your credentials (~/.netrc for https,"
              + " ~/.ssh for ssh://); repeat it for more. Other hosts get none, and their ssh://"
              + " sources are refused.")
  List<String> credentialHosts = new ArrayList<>();

  /** The sources' access, with the cache in {@code cache}. */
  SourceAccess access(Path cache) {
    return new SourceAccess(cache, allowLocalSources, Set.copyOf(credentialHosts));
  }

  /** The sources' access, with the cache in {@code stateDirectory}. */
  SourceAccess inStateDirectory(Path stateDirectory) {
    return access(stateDirectory.resolve(SourceAccess.CACHE_DIRECTORY));
  }
}
