package io.livegate.process;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import io.livegate.core.runner.Command;
import io.livegate.core.runner.CommandResult;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * A private module source fetched by real terraform, as the ECS tasks run it: as the image's user
 * (setpriv, uid 10001; the tests run as root, as the tasks' Java does) with the allow-listed
 * environment, from a real git repository served over HTTP with Basic authentication. The server is
 * a JDK HTTP server in front of a bare repository with git's "dumb" HTTP protocol (static files
 * after {@code git update-server-info}): git asks for credentials on a 401 the same way whichever
 * protocol the server speaks, and HTTP instead of HTTPS spares the test a certificate authority;
 * git's credential matching is by scheme, host and port either way.
 */
@Tag("terraform")
@Timeout(value = 20, unit = TimeUnit.MINUTES)
@ExtendWith(SandboxUserLock.class)
class GitCredentialStoreTest {
  private static final String TOKEN = "ghp_moduleReader0123456789";
  private static final int USER = SetprivSandbox.IMAGE_USER;

  @TempDir Path dir;

  private HttpServer server;
  private final List<String> authorizations = new ArrayList<>();
  private final List<String> output = new ArrayList<>();

  @BeforeEach
  void serveAPrivateModuleRepository() throws Exception {
    Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-xr-x"));
    Path work = Files.createDirectories(dir.resolve("modules-work"));
    Files.writeString(
        work.resolve("main.tf"),
        "resource \"terraform_data\" \"from_private_module\" {\n  input = \"private\"\n}\n");
    git(work, "init", "-q", "-b", "main");
    git(work, "add", "main.tf");
    git(work, "-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-q", "-m", "m");
    Path bare = dir.resolve("modules.git");
    git(dir, "clone", "-q", "--bare", work.toString(), bare.toString());
    git(bare, "update-server-info");

    String expected =
        "Basic "
            + Base64.getEncoder()
                .encodeToString(
                    (GitCredentialStore.USER + ":" + TOKEN).getBytes(StandardCharsets.UTF_8));
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext(
        "/modules.git/",
        exchange -> {
          String authorization = exchange.getRequestHeaders().getFirst("Authorization");
          authorizations.add(String.valueOf(authorization));
          Path file =
              bare.resolve(exchange.getRequestURI().getPath().substring("/modules.git/".length()))
                  .normalize();
          if (!expected.equals(authorization)) {
            exchange.getResponseHeaders().add("WWW-Authenticate", "Basic realm=\"modules\"");
            exchange.sendResponseHeaders(401, -1);
          } else if (!file.startsWith(bare) || !Files.isRegularFile(file)) {
            exchange.sendResponseHeaders(404, -1);
          } else {
            byte[] bytes = Files.readAllBytes(file);
            exchange.sendResponseHeaders(200, bytes.length);
            exchange.getResponseBody().write(bytes);
          }
          exchange.close();
        });
    server.start();
  }

  @AfterEach
  void stop() {
    server.stop(0);
  }

  private URI host() {
    return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
  }

  /** A unit that sources the private module, initialised as terra-run initialises it. */
  private CommandResult init(Path home) throws IOException {
    Path repository = Files.createDirectories(dir.resolve("live"));
    Path unit = Files.createDirectories(repository.resolve("app"));
    Files.writeString(
        unit.resolve("main.tf"),
        "module \"private\" {\n  source = \"git::" + host() + "/modules.git?ref=main\"\n}\n");
    Path cliConfig = Files.writeString(dir.resolve("terraformrc"), "");
    Map<String, String> environment = new HashMap<>(System.getenv());
    environment.put("HOME", home.toString());
    environment.put("TF_CLI_CONFIG_FILE", cliConfig.toString());
    environment.put("TF_IN_AUTOMATION", "1");
    SetprivSandbox sandbox = new SetprivSandbox(USER, USER, home);
    List<String> argv =
        sandbox.wrap(
            List.of("terraform", "init", "-input=false", "-no-color"),
            repository,
            Optional.empty());
    return new ProcessCommandRunner(output::add)
        .run(
            new Command(
                argv, unit, RunnerEnvironment.allowed(environment), Duration.ofSeconds(90)));
  }

  @Test
  void terraformFetchesAPrivateGitModuleWithTheTokenFromTheCredentialStore() throws Exception {
    Path home = dir.resolve("home");
    GitCredentialStore.write(home, host(), TOKEN);

    CommandResult init = init(home);

    assertThat(init.exitCode()).as(String.join("\n", output)).isZero();
    assertThat(dir.resolve("live/app/.terraform/modules/private/main.tf")).exists();
    assertThat(authorizations).contains("null").anyMatch(value -> value.startsWith("Basic "));
    assertThat(String.join("\n", output)).doesNotContain(TOKEN);
    assertThat(Files.readString(home.resolve(".gitconfig")))
        .isEqualTo(
            "[credential \""
                + host()
                + "\"]\n\thelper =\n\thelper = \"store --file="
                + home.resolve(".git-credentials")
                + "\"\n");
    assertThat(
            PosixFilePermissions.toString(
                Files.getPosixFilePermissions(home.resolve(".git-credentials"))))
        .isEqualTo("rw-------");
    assertThat(Files.getAttribute(home.resolve(".git-credentials"), "unix:uid")).isEqualTo(USER);
  }

  @Test
  void withoutTheCredentialStoreThePrivateModuleCannotBeFetched() throws Exception {
    CommandResult init = init(dir.resolve("home"));

    assertThat(init.exitCode()).as(String.join("\n", output)).isNotZero();
    assertThat(authorizations).containsOnly("null");
  }

  @Test
  void theTokenIsSentToNoOtherHost() throws Exception {
    Path home = dir.resolve("home");
    GitCredentialStore.write(home, URI.create("https://github.com"), TOKEN);

    CommandResult init = init(home);

    assertThat(init.exitCode()).as(String.join("\n", output)).isNotZero();
    assertThat(authorizations).containsOnly("null");
  }

  private static void git(Path directory, String... arguments)
      throws IOException, InterruptedException {
    List<String> argv = new ArrayList<>(List.of("git"));
    argv.addAll(List.of(arguments));
    Process process =
        new ProcessBuilder(argv).directory(directory.toFile()).redirectErrorStream(true).start();
    String printed = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (process.waitFor() != 0) {
      throw new IllegalStateException(String.join(" ", argv) + " failed: " + printed);
    }
  }
}
