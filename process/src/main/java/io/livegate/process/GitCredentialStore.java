package io.livegate.process;

import io.livegate.core.LivegateException;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;

/**
 * Lets git, as terraform and terragrunt run it to fetch module sources ({@code
 * git::https://github.com/…}), sign in to one host with a token: the home's {@code .gitconfig}
 * names git's own {@code store} credential helper for that host only, and the store file beside it
 * holds the token. The token is in no argv and no environment variable, so neither a process list
 * nor a log shows it, and git sends it to no other host.
 *
 * <p>The files are the home's, which {@link SetprivSandbox} gives to the user terraform runs as:
 * whatever runs as that user, the code being deployed included, can read the token. So it must be a
 * token that can only read the module repositories, never livegate's own GitHub token
 * (docs/security.md).
 */
public final class GitCredentialStore {
  /** The user name git sends with the token; GitHub reads the token, whatever the name. */
  static final String USER = "x-access-token";

  private GitCredentialStore() {}

  /**
   * Writes {@code home/.gitconfig} and {@code home/.git-credentials} (both 0600).
   *
   * @param host the scheme, host and port the token is for, e.g. {@code https://github.com}
   */
  public static void write(Path home, URI host, String token) {
    if (host.getScheme() == null
        || host.getHost() == null
        || !(host.getPath() == null || host.getPath().isEmpty() || host.getPath().equals("/"))) {
      throw new LivegateException(
          "the module sources' host must be a scheme and host such as https://github.com, not "
              + host);
    }
    if (token.isBlank()) {
      throw new LivegateException("the module sources' token is empty");
    }
    String origin =
        host.getScheme()
            + "://"
            + host.getHost()
            + (host.getPort() < 0 ? "" : ":" + host.getPort());
    Path store = home.toAbsolutePath().normalize().resolve(".git-credentials");
    try {
      Files.createDirectories(home);
      writeOwnerOnly(
          store,
          host.getScheme()
              + "://"
              + USER
              + ":"
              + URLEncoder.encode(token.strip(), StandardCharsets.UTF_8)
              + "@"
              + origin.substring(origin.indexOf("://") + 3)
              + "\n");
      // The empty helper drops any helper configured before, so no other one is asked.
      writeOwnerOnly(
          home.resolve(".gitconfig"),
          "[credential \""
              + origin
              + "\"]\n\thelper =\n\thelper = \"store --file="
              + store
              + "\"\n");
    } catch (IOException e) {
      throw new LivegateException(
          "cannot write the module sources' git credentials in " + home + ": " + e.getMessage(), e);
    }
  }

  private static void writeOwnerOnly(Path file, String text) throws IOException {
    Files.deleteIfExists(file);
    Files.createFile(
        file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
    Files.writeString(file, text, StandardCharsets.UTF_8, StandardOpenOption.TRUNCATE_EXISTING);
  }
}
