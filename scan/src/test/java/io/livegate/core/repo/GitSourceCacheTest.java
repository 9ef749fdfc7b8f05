package io.livegate.core.repo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.livegate.core.scan.testing.TestRepo;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.eclipse.jgit.api.Git;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Remote sources fetched with JGit from a bare repository in a temp directory. */
class GitSourceCacheTest {
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
  void sshSourceWithoutAnSshTransportIsUnavailableSayingSo() {
    assertThatThrownBy(
            () ->
                new GitSourceCache(dir.resolve("cache"))
                    .fetch("ssh://git@127.0.0.1:1/acme/catalog.git", "v1", ""))
        .isInstanceOf(RemoteSources.Unavailable.class)
        .hasMessageStartingWith("ssh sources need an SSH transport for JGit");
  }

  private static void deleteRecursively(Path path) throws IOException {
    try (Stream<Path> walk = Files.walk(path)) {
      for (Path each : walk.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(each);
      }
    }
  }
}
