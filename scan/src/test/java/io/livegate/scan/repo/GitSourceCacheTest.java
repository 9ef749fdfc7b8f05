package io.livegate.scan.repo;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpServer;
import io.livegate.scan.testing.TestRepo;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PublicKey;
import java.util.Base64;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.apache.sshd.common.config.keys.KeyUtils;
import org.apache.sshd.common.config.keys.PublicKeyEntry;
import org.apache.sshd.common.config.keys.writer.openssh.OpenSSHKeyPairResourceWriter;
import org.apache.sshd.server.SshServer;
import org.apache.sshd.server.keyprovider.SimpleGeneratorHostKeyProvider;
import org.apache.sshd.server.shell.ProcessShellFactory;
import org.eclipse.jgit.api.Git;
import org.eclipse.jgit.transport.CredentialsProvider;
import org.eclipse.jgit.transport.UsernamePasswordCredentialsProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Remote sources fetched with JGit from a bare repository in a temp directory, over {@code file://}
 * and over SSH from a real SSH server.
 */
class GitSourceCacheTest {
  /** What git sends over SSH to fetch: {@code git-upload-pack '/path'}. */
  private static final Pattern UPLOAD_PACK = Pattern.compile("git-upload-pack '([^']+)'");

  @TempDir Path dir;

  /** The public keys the SSH server was offered. */
  private final AtomicInteger keyOffers = new AtomicInteger();

  private String remoteWithTagV1() throws Exception {
    try (TestRepo work = TestRepo.create(dir.resolve("work"))) {
      work.write("units/app/terragrunt.hcl", "inputs = {}\n");
      work.write("units/app/nested/settings.yaml", "a: 1\n");
      work.write("modules/vpc/main.tf", "\n");
      work.commit("catalog");
      Path remote = dir.resolve("catalog.git");
      try (Git git = Git.open(work.root().toFile())) {
        git.tag().setName("v1").call();
        Git.init()
            .setBare(true)
            .setInitialBranch("main")
            .setDirectory(remote.toFile())
            .call()
            .close();
        git.push().setRemote(remote.toUri().toString()).setPushAll().setPushTags().call();
      }
      return "file://" + remote;
    }
  }

  /** The test's cache, fetching file:// sources as the operator allowed. */
  private SourceAccess local() {
    return new SourceAccess(dir.resolve("cache"), true, Set.of());
  }

  /** The test's cache, signing in to {@code hosts} with the operator's credentials. */
  private SourceAccess signingInTo(String... hosts) {
    return new SourceAccess(dir.resolve("cache"), false, Set.of(hosts));
  }

  @Test
  void aFileSourceIsFetchedOnlyWhenLocalSourcesAreAllowed() throws Exception {
    String url = remoteWithTagV1();

    assertThatThrownBy(() -> new GitSourceCache(signingInTo()).fetch(url, "v1", "units/app"))
        .isInstanceOf(RemoteSources.Unavailable.class)
        .hasMessage(
            "a file:// source is a repository of this machine outside the one being deployed;"
                + " livegate fetches it only when the operator passes --allow-local-sources");
    assertThat(dir.resolve("cache")).doesNotExist();

    assertThat(new GitSourceCache(local()).fetch(url, "v1", "units/app").files())
        .containsExactlyInAnyOrder("terragrunt.hcl", "nested/settings.yaml");
  }

  @Test
  void operatorsHttpCredentialsGoOnlyToTheHostsTheOperatorListed() throws Exception {
    List<String> authorizations = new CopyOnWriteArrayList<>();
    HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    server.createContext(
        "/",
        exchange -> {
          authorizations.add(
              String.valueOf(exchange.getRequestHeaders().getFirst("Authorization")));
          exchange.getResponseHeaders().add("WWW-Authenticate", "Basic realm=\"git\"");
          exchange.sendResponseHeaders(401, -1);
          exchange.close();
        });
    server.start();
    // The operator's credentials, as ~/.netrc would give them for every host.
    CredentialsProvider.setDefault(
        new UsernamePasswordCredentialsProvider("operator", "operators-secret"));
    try {
      String url = "http://127.0.0.1:" + server.getAddress().getPort() + "/private.git";

      assertThatThrownBy(
              () -> new GitSourceCache(signingInTo("github.com")).fetch(url, "v1", "units/app"))
          .isInstanceOf(RemoteSources.Unavailable.class);
      assertThat(authorizations).isNotEmpty().containsOnly("null");

      assertThatThrownBy(
              () -> new GitSourceCache(signingInTo("127.0.0.1")).fetch(url, "v1", "units/app"))
          .isInstanceOf(RemoteSources.Unavailable.class);
      assertThat(authorizations)
          .as("the listed host is asked with the operator's credentials")
          .contains(
              "Basic "
                  + Base64.getEncoder()
                      .encodeToString("operator:operators-secret".getBytes(UTF_8)));
    } finally {
      CredentialsProvider.setDefault(null);
      server.stop(0);
    }
  }

  @Test
  void sameUrlAndRefIsFetchedOnceByOneCacheEvenWhenManyThreadsAskAtOnce() throws Exception {
    String url = remoteWithTagV1();
    GitSourceCache cache = new GitSourceCache(local());
    ExecutorService pool = Executors.newFixedThreadPool(4);
    try {
      List<Future<SourceTree>> trees =
          IntStream.range(0, 8)
              .mapToObj(i -> pool.submit(() -> cache.fetch(url, "v1", "units/app")))
              .toList();
      for (Future<SourceTree> tree : trees) {
        assertThat(tree.get().files())
            .containsExactlyInAnyOrder("terragrunt.hcl", "nested/settings.yaml");
      }
    } finally {
      pool.shutdownNow();
    }
    deleteRecursively(dir.resolve("catalog.git"));

    // The same scan asks again: the tag is not fetched a second time.
    assertThat(cache.fetch(url, "v1", "units/app").read("nested/settings.yaml"))
        .isEqualTo("a: 1\n");
    // The next scan fetches the tag again, since it may have moved; the remote is gone.
    assertThatThrownBy(() -> new GitSourceCache(local()).fetch(url, "v1", ""))
        .isInstanceOf(RemoteSources.Unavailable.class)
        .hasMessage(url + ": not found.");
  }

  @Test
  void directoryThatTheCommitDoesNotHoldIsUnavailable() throws Exception {
    String url = remoteWithTagV1();

    assertThatThrownBy(() -> new GitSourceCache(local()).fetch(url, "v1", "units/db"))
        .isInstanceOf(RemoteSources.Unavailable.class)
        .hasMessageMatching("commit [0-9a-f]{12} has no directory 'units/db'");
  }

  @Test
  void defaultBranchIsFetchedWhenNoRefIsGiven() throws Exception {
    String url = remoteWithTagV1();

    assertThat(new GitSourceCache(local()).fetch(url, null, "modules").files())
        .containsExactly("vpc/main.tf");
  }

  @Test
  void sshSourceIsFetchedWithTheKeyOfTheSshDirectoryFromAHostItKnows() throws Exception {
    String remote = remoteWithTagV1().substring("file://".length());
    Path ssh = Files.createDirectories(dir.resolve("home/.ssh"));
    KeyPair client = KeyPairGenerator.getInstance("EC").generateKeyPair();
    try (OutputStream key = Files.newOutputStream(ssh.resolve("id_ecdsa"))) {
      OpenSSHKeyPairResourceWriter.INSTANCE.writePrivateKey(client, "livegate test", null, key);
    }
    Files.setPosixFilePermissions(
        ssh.resolve("id_ecdsa"), PosixFilePermissions.fromString("rw-------"));
    try (SshServer server = gitOverSsh(client.getPublic())) {
      String host = "[127.0.0.1]:" + server.getPort();
      String url = "ssh://git@127.0.0.1:" + server.getPort() + remote;
      PublicKey hostKey = server.getKeyPairProvider().loadKeys(null).iterator().next().getPublic();

      // A host the operator did not list never gets the SSH keys.
      assertThatThrownBy(
              () ->
                  new GitSourceCache(signingInTo("github.com"), ssh).fetch(url, "v1", "units/app"))
          .isInstanceOf(RemoteSources.Unavailable.class)
          .hasMessage(
              "an ssh:// source signs in with the operator's SSH keys, which livegate uses only for"
                  + " the hosts the operator lists with --source-credentials-host, and 127.0.0.1"
                  + " is not one of them");
      assertThat(keyOffers).as("no key was offered to the SSH server").hasValue(0);

      // A host that is not in known_hosts is refused, as ssh's StrictHostKeyChecking does.
      assertThatThrownBy(
              () -> new GitSourceCache(signingInTo("127.0.0.1"), ssh).fetch(url, "v1", "units/app"))
          .isInstanceOf(RemoteSources.Unavailable.class)
          .hasMessage(url + ": Server key did not validate");

      Files.writeString(
          ssh.resolve("known_hosts"), host + " " + PublicKeyEntry.toString(hostKey) + "\n");
      assertThat(
              new GitSourceCache(signingInTo("127.0.0.1"), ssh)
                  .fetch(url, "v1", "units/app")
                  .files())
          .containsExactlyInAnyOrder("terragrunt.hcl", "nested/settings.yaml");
    }
  }

  /**
   * A real SSH server (Apache MINA sshd) that lets in only {@code allowed} and serves fetches with
   * the real {@code git-upload-pack}, as a git host's SSH endpoint does.
   */
  private SshServer gitOverSsh(PublicKey allowed) throws IOException {
    SshServer server = SshServer.setUpDefaultServer();
    server.setHost("127.0.0.1");
    server.setPort(0);
    server.setKeyPairProvider(new SimpleGeneratorHostKeyProvider(dir.resolve("host-key")));
    server.setPublickeyAuthenticator(
        (user, key, session) -> {
          keyOffers.incrementAndGet();
          return KeyUtils.compareKeys(allowed, key);
        });
    server.setCommandFactory(
        (channel, command) -> {
          Matcher uploadPack = UPLOAD_PACK.matcher(command);
          if (!uploadPack.matches()) {
            throw new IOException("this server only serves fetches, not: " + command);
          }
          return new ProcessShellFactory(command, List.of("git-upload-pack", uploadPack.group(1)))
              .createShell(channel);
        });
    server.start();
    return server;
  }

  private static void deleteRecursively(Path path) throws IOException {
    try (Stream<Path> walk = Files.walk(path)) {
      for (Path each : walk.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(each);
      }
    }
  }
}
