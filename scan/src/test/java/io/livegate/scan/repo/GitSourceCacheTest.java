package io.livegate.scan.repo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.livegate.scan.testing.TestRepo;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PublicKey;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
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

  @Test
  void sameUrlAndRefIsFetchedOnceByOneCacheEvenWhenManyThreadsAskAtOnce() throws Exception {
    String url = remoteWithTagV1();
    GitSourceCache cache = new GitSourceCache(dir.resolve("cache"));
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
    assertThatThrownBy(() -> new GitSourceCache(dir.resolve("cache")).fetch(url, "v1", ""))
        .isInstanceOf(RemoteSources.Unavailable.class)
        .hasMessage(url + ": not found.");
  }

  @Test
  void directoryThatTheCommitDoesNotHoldIsUnavailable() throws Exception {
    String url = remoteWithTagV1();

    assertThatThrownBy(() -> new GitSourceCache(dir.resolve("cache")).fetch(url, "v1", "units/db"))
        .isInstanceOf(RemoteSources.Unavailable.class)
        .hasMessageMatching("commit [0-9a-f]{12} has no directory 'units/db'");
  }

  @Test
  void defaultBranchIsFetchedWhenNoRefIsGiven() throws Exception {
    String url = remoteWithTagV1();

    assertThat(new GitSourceCache(dir.resolve("cache")).fetch(url, null, "modules").files())
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

      // A host that is not in known_hosts is refused, as ssh's StrictHostKeyChecking does.
      assertThatThrownBy(
              () -> new GitSourceCache(dir.resolve("cache"), ssh).fetch(url, "v1", "units/app"))
          .isInstanceOf(RemoteSources.Unavailable.class)
          .hasMessage(url + ": Server key did not validate");

      Files.writeString(
          ssh.resolve("known_hosts"), host + " " + PublicKeyEntry.toString(hostKey) + "\n");
      assertThat(
              new GitSourceCache(dir.resolve("cache"), ssh).fetch(url, "v1", "units/app").files())
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
    server.setPublickeyAuthenticator((user, key, session) -> KeyUtils.compareKeys(allowed, key));
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
