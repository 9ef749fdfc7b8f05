package io.livegate.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code livegate serve} as a GitHub App: its three options are taken together and instead of a
 * token, and a key file that holds no key stops serve before anything starts, naming the file.
 * GitHubAppTest (module github) checks the tokens themselves.
 */
class ServeGitHubAppOptionsTest {
  @TempDir Path dir;

  @Test
  void anAppIdWithoutItsInstallationAndKeyIsRefusedNamingTheMissingOptions() {
    CliRun run = serve("--github-app-id", "12345");

    assertThat(run.exitCode()).isNotZero();
    assertThat(run.err())
        .contains(
            "a GitHub App needs all of --github-app-id, --github-app-installation-id and"
                + " --github-app-key-file");
    assertThat(dir.resolve("state")).doesNotExist();
  }

  @Test
  void anAppAndATokenFileTogetherAreRefused() throws Exception {
    Path key = Files.writeString(dir.resolve("app.pem"), "not a key");
    Path token = Files.writeString(dir.resolve("token"), "ghp_x");

    CliRun run = serveAsApp(key, "--github-token-file", token.toString());

    assertThat(run.exitCode()).isNotZero();
    assertThat(run.err()).contains("give a GitHub App or --github-token-file, not both");
  }

  @Test
  void aKeyFileWithoutAPrivateKeyStopsServeNamingTheFile() throws Exception {
    Path key = Files.writeString(dir.resolve("app.pem"), "ghp_a-token-saved-as-the-key");

    CliRun run = serveAsApp(key);

    assertThat(run.exitCode()).isNotZero();
    assertThat(run.err()).contains(key + " holds no PEM private key");
    assertThat(dir.resolve("state")).doesNotExist();
  }

  /** serve with all three App options, the key in {@code key}, then {@code more}. */
  private CliRun serveAsApp(Path key, String... more) {
    List<String> args =
        new ArrayList<>(
            List.of(
                "--github-app-id",
                "12345",
                "--github-app-installation-id",
                "4567",
                "--github-app-key-file",
                key.toString()));
    args.addAll(List.of(more));
    return serve(args.toArray(String[]::new));
  }

  private CliRun serve(String... app) {
    Map<String, String> environment = new HashMap<>(System.getenv());
    environment.put("LIVEGATE_WEBHOOK_SECRET", "It's a Secret to Everybody");
    String[] args = new String[6 + app.length];
    args[0] = "serve";
    args[1] = "--repo-url";
    args[2] = "https://github.com/acme/live";
    args[3] = "--runner=terraform";
    args[4] = "--state-dir";
    args[5] = dir.resolve("state").toString();
    System.arraycopy(app, 0, args, 6, app.length);
    return CliRun.inEnvironment(environment, args);
  }
}
