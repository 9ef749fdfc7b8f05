package io.livegate.cli.local;

import static org.assertj.core.api.Assertions.assertThat;

import io.livegate.core.deploy.Deployment;
import io.livegate.core.deploy.MergedPullRequest;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The local metadb keeps what it recorded, and never signals a process that is not its server. */
@Tag("crash")
class LocalMetadbTest {
  private static final String REPOSITORY = "acme/live";
  private static final int MERGES = 20;

  @TempDir Path dir;
  private final List<ProcessHandle> started = new ArrayList<>();

  @AfterEach
  void stopLeftovers() {
    started.forEach(ProcessHandle::destroyForcibly);
  }

  @Test
  void theServerRunsWithFsyncAndSynchronousCommit() {
    try (LocalMetadb metadb = LocalMetadb.start(dir.resolve("metadb"))) {
      assertThat(setting(metadb, "fsync")).isEqualTo("on");
      assertThat(setting(metadb, "synchronous_commit")).isEqualTo("on");
    }
  }

  @Test
  void whatWasRecordedSurvivesKillingLivegateAndItsServerTogether() throws Exception {
    Path data = dir.resolve("metadb");
    Process writer =
        new ProcessBuilder(ChildJvm.command(Writer.class, List.of(data.toString())))
            .redirectErrorStream(true)
            .start();
    started.add(writer.toHandle());
    String line;
    try (BufferedReader out =
        new BufferedReader(
            new InputStreamReader(writer.getInputStream(), StandardCharsets.UTF_8))) {
      while ((line = out.readLine()) != null && !line.equals("recorded")) {
        // the embedded server's start-up lines
      }
    }
    assertThat(line).as("the writer recorded its merges").isEqualTo("recorded");

    PowerCut.cut(writer.toHandle(), data);

    try (LocalMetadb metadb = LocalMetadb.start(data)) {
      assertThat(metadb.metadb().deployments().list(REPOSITORY))
          .extracting(Deployment::pullRequest)
          .extracting(MergedPullRequest::number)
          .hasSize(MERGES);
    }
  }

  @Test
  void aStalePidFileNamingAnUnrelatedProcessIsRemovedAndTheProcessSurvives() throws Exception {
    Path data = dir.resolve("metadb");
    LocalMetadb.start(data).close();
    Process unrelated = new ProcessBuilder("sleep", "60").start();
    started.add(unrelated.toHandle());
    // The file a killed server leaves, with its PID reused by an unrelated process.
    Files.writeString(
        data.resolve("postmaster.pid"),
        unrelated.pid() + "\n" + data + "\n" + Instant.now().getEpochSecond() + "\n5432\n");

    try (LocalMetadb metadb = LocalMetadb.start(data)) {
      assertThat(metadb.metadb().deployments().list(REPOSITORY)).isEmpty();
    }
    assertThat(unrelated.isAlive()).as("the unrelated process was never signalled").isTrue();
  }

  @Test
  void aServerThatKeepsItsDataElsewhereIsNeverTakenForTheMetadb() throws Exception {
    Path theirs = Files.createDirectories(dir.resolve("theirs"));
    Path ours = Files.createDirectories(dir.resolve("ours"));
    try (EmbeddedPostgres other =
        EmbeddedPostgres.builder().setDataDirectory(theirs).setCleanDataDirectory(false).start()) {
      assertThat(LocalMetadb.serves(other.getPostgresDatabase(), theirs)).isTrue();
      assertThat(LocalMetadb.serves(other.getPostgresDatabase(), ours))
          .as("another server on the port the metadb was given")
          .isFalse();
    }
  }

  private static String setting(LocalMetadb metadb, String name) {
    return metadb
        .metadb()
        .jdbi()
        .withHandle(handle -> handle.createQuery("SHOW " + name).mapTo(String.class).one());
  }

  /** A livegate stand-in that records merges, says so, and waits to be killed. */
  public static final class Writer {
    public static void main(String[] args) throws InterruptedException {
      LocalMetadb metadb = LocalMetadb.start(Path.of(args[0]));
      for (int number = 1; number <= MERGES; number++) {
        String sha = String.format("%040x", number);
        metadb
            .metadb()
            .deployments()
            .enqueue(
                MergedPullRequest.withExactBase(
                    REPOSITORY, number, "main", "pr-" + number, sha, sha),
                Instant.now());
      }
      System.out.println("recorded");
      System.out.flush();
      Thread.sleep(Long.MAX_VALUE);
    }
  }
}
