package io.livegate.cli.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.livegate.cli.CliRun;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** One livegate run per state directory; the others say which run holds it. */
@Tag("crash")
class StateDirectoryLockTest {
  @TempDir Path state;
  private Process holder;

  @AfterEach
  void stopHolder() {
    if (holder != null) {
      holder.destroyForcibly();
    }
  }

  @Test
  void aSecondRunOnTheSameStateDirectoryIsRefusedWithTheHolderNamed() throws Exception {
    holdInAnotherJvm();

    assertThatThrownBy(() -> StateDirectoryLock.take(state))
        .isInstanceOf(StateDirectoryLock.Busy.class)
        .hasMessageContaining("is in use by another livegate run (pid " + holder.pid() + " since")
        .hasMessageContaining("watch it with: livegate status --state-dir");
    CliRun deploy =
        CliRun.withPath("resume", "--state-dir", state.toString(), "--runner", "terraform");
    assertThat(deploy.exitCode()).as(deploy.toString()).isEqualTo(1);
    assertThat(deploy.err()).contains("pid " + holder.pid());
  }

  @Test
  void aSecondRunTouchesNothingInABusyStateDirectory() throws Exception {
    holdInAnotherJvm();
    // What the holder's server writes and deletes as it runs: a second run walking the directory
    // to chmod it would race with it. Its mode shows whether anything walked it.
    Path file = Files.writeString(state.resolve("metadb-file"), "the holder's");
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r--r--"));

    assertThatThrownBy(() -> new LocalWiring(state)).isInstanceOf(StateDirectoryLock.Busy.class);
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file)))
        .as("nothing in the state directory is touched before its lock is taken")
        .isEqualTo("rw-r--r--");
  }

  @Test
  void statusOfAHolderWhoseMetadbNeverComesUpNamesTheHolder() throws Exception {
    holdInAnotherJvm();

    CliRun status = CliRun.of("status", "--state-dir", state.toString());

    assertThat(status.exitCode()).as(status.toString()).isEqualTo(1);
    assertThat(status.err())
        .startsWith("livegate: a livegate run holds " + state + " (pid " + holder.pid() + " since")
        .endsWith(") but its metadb did not accept a login within 30 s\n");
  }

  @Test
  void aRunKilledWithSigkillLeavesNoLockBehind() throws Exception {
    holdInAnotherJvm();
    holder.destroyForcibly().waitFor();

    try (StateDirectoryLock lock = StateDirectoryLock.take(state)) {
      assertThat(lock).isNotNull();
    }
  }

  @Test
  void theLockFileIsReadableByItsOwnerOnlyFromTheMomentItIsMade() throws Exception {
    try (StateDirectoryLock lock = StateDirectoryLock.take(state)) {
      assertThat(
              PosixFilePermissions.toString(Files.getPosixFilePermissions(state.resolve("lock"))))
          .isEqualTo("rw-------");
    }
  }

  @Test
  void theSameProcessCannotTakeItTwice() {
    try (StateDirectoryLock first = StateDirectoryLock.take(state)) {
      assertThatThrownBy(() -> StateDirectoryLock.take(state))
          .isInstanceOf(StateDirectoryLock.Busy.class);
    }
  }

  private void holdInAnotherJvm() throws Exception {
    holder =
        new ProcessBuilder(ChildJvm.command(Holder.class, List.of(state.toString())))
            .redirectErrorStream(true)
            .start();
    BufferedReader out =
        new BufferedReader(new InputStreamReader(holder.getInputStream(), StandardCharsets.UTF_8));
    assertThat(out.readLine()).isEqualTo("locked");
  }

  /** A livegate run stand-in: takes the lock, says so, and waits to be killed. */
  public static final class Holder {
    public static void main(String[] args) throws InterruptedException {
      StateDirectoryLock.take(Path.of(args[0]));
      System.out.println("locked");
      System.out.flush();
      Thread.sleep(Long.MAX_VALUE);
    }
  }
}
