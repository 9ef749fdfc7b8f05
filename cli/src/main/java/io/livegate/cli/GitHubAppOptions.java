package io.livegate.cli;

import io.livegate.core.LivegateException;
import io.livegate.github.GitHubApp;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import picocli.CommandLine.Option;

/**
 * The GitHub App options that {@code serve} acts with and {@code doctor} checks
 * (docs/github-app.md): all three together, or none.
 */
final class GitHubAppOptions {
  @Option(
      names = "--github-app-id",
      paramLabel = "ID",
      description =
          "Act as this GitHub App (its client ID or App ID) instead of a token: with --github-app-installation-id and --github-app-key-file (docs/github-app.md).")
  String id;

  @Option(
      names = "--github-app-installation-id",
      paramLabel = "N",
      description = "The GitHub App's installation on the live repository's owner.")
  Long installationId;

  @Option(
      names = "--github-app-key-file",
      paramLabel = "FILE",
      description = "The GitHub App's private key, the PEM file GitHub downloads.")
  Path keyFile;

  /** Whether any of the three options was given. */
  boolean given() {
    return id != null || installationId != null || keyFile != null;
  }

  /** The App the options name; empty when none was given, an error when only some were. */
  Optional<GitHubApp> app() {
    if (!given()) {
      return Optional.empty();
    }
    if (id == null || installationId == null || keyFile == null) {
      throw new LivegateException(
          "a GitHub App needs all of --github-app-id, --github-app-installation-id and"
              + " --github-app-key-file");
    }
    String key;
    try {
      key = Files.readString(keyFile).strip();
    } catch (IOException e) {
      throw new LivegateException("cannot read " + keyFile + ": " + e.getMessage(), e);
    }
    if (key.isEmpty()) {
      throw new LivegateException(keyFile + " is empty");
    }
    return Optional.of(GitHubApp.of(id, installationId, key, keyFile.toString()));
  }
}
