package io.livegate.cli.local;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class OwnerOnlyTest {
  @TempDir Path dir;

  @Test
  void restrictingTakesGroupAndOthersPermissionsFromEveryFileAndDirectory() throws IOException {
    Path plans = Files.createDirectories(dir.resolve("state/plans"));
    Path plan = Files.writeString(plans.resolve("d1-app.tfplan"), "plan");
    Files.setPosixFilePermissions(plans, PosixFilePermissions.fromString("rwxr-xr-x"));
    Files.setPosixFilePermissions(plan, PosixFilePermissions.fromString("rw-rw-r--"));

    OwnerOnly.restrict(dir.resolve("state"));

    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(plans)))
        .isEqualTo("rwx------");
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(plan)))
        .isEqualTo("rw-------");
  }

  /**
   * The metadb's server of a run that holds the state directory writes and removes its own files
   * while another livegate restricts the directory (a CI run under load: {@code pg_internal.init}
   * went between the walk's listing and its chmod, and the reader failed). Files that come and go
   * meanwhile are passed over; the walk never fails for them.
   */
  @Test
  void filesThatComeAndGoWhileTheWalkRunsAreLeftToTheirOwnerAndNeverFailIt() throws Exception {
    Path state = dir.resolve("state");
    Path churning = Files.createDirectories(state.resolve("metadb/global"));
    AtomicBoolean running = new AtomicBoolean(true);
    Thread server =
        new Thread(
            () -> {
              try {
                while (running.get()) {
                  for (int i = 0; i < 200; i++) {
                    Files.writeString(churning.resolve("pg_internal.init." + i), "cache");
                  }
                  for (int i = 0; i < 200; i++) {
                    Files.delete(churning.resolve("pg_internal.init." + i));
                  }
                }
              } catch (IOException e) {
                throw new UncheckedIOException(e);
              }
            });
    server.start();
    try {
      for (int walk = 0; walk < 300; walk++) {
        OwnerOnly.restrict(state);
      }
    } finally {
      running.set(false);
      server.join();
    }
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(churning)))
        .isEqualTo("rwx------");
  }
}
