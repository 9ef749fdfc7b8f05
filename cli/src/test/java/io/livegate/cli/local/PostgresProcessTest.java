package io.livegate.cli.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.livegate.core.LivegateException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Properties;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The metadb's server on an existing data directory runs from binaries unpacked earlier, only when
 * they are this build's and no other user could have changed them, and says why it did not start.
 */
class PostgresProcessTest {
  @TempDir Path dir;

  @AfterEach
  void forgetWorkingDirectory() {
    System.clearProperty("ot.epg.working-dir");
  }

  @Test
  void unpackedBinariesAreUsedOnlyWhenNoOtherUserCouldHaveChangedThem() throws Exception {
    Path binaries = dir.resolve("PG-" + buildDigest());
    Path postgres = Files.createDirectories(binaries.resolve("bin")).resolve("postgres");
    Files.createFile(postgres, PosixFilePermissions.asFileAttribute(rwxrx()));
    Files.createDirectories(binaries.resolve("lib"));
    // the library's marker of a finished unpack, made last
    Files.createFile(binaries.resolve(".exists"));
    System.setProperty("ot.epg.working-dir", dir.toString());

    assertThat(PostgresProcess.unpackedBinaries()).contains(binaries);

    Files.setPosixFilePermissions(postgres, PosixFilePermissions.fromString("rwxrwxrwx"));
    assertThat(PostgresProcess.unpackedBinaries())
        .as("a server program any user may write")
        .isEmpty();
  }

  @Test
  void unpackedBinariesWithoutTheMarkOfAFinishedUnpackAreNotUsed() throws Exception {
    Path binaries = dir.resolve("PG-" + buildDigest());
    Files.createFile(
        Files.createDirectories(binaries.resolve("bin")).resolve("postgres"),
        PosixFilePermissions.asFileAttribute(rwxrx()));
    System.setProperty("ot.epg.working-dir", dir.toString());

    assertThat(PostgresProcess.unpackedBinaries()).isEmpty();
  }

  @Test
  void aServerThatExitsWhileStartingIsReportedInItsOwnWords() throws Exception {
    Path data = dir.resolve("metadb");
    LocalMetadb.start(data).close();
    assertThat(PostgresProcess.unpackedBinaries())
        .as("the first start unpacked the binaries; the next runs them itself")
        .isPresent();
    Files.writeString(data.resolve("postgresql.auto.conf"), "no_such_setting = 1\n");

    assertThatThrownBy(() -> LocalMetadb.start(data))
        .isInstanceOf(LivegateException.class)
        .hasMessageContaining("cannot start the local metadb in " + data)
        .hasMessageContaining("unrecognized configuration parameter \"no_such_setting\"");
  }

  private static String buildDigest() throws Exception {
    Properties digests = new Properties();
    try (InputStream in =
        PostgresProcess.class.getResourceAsStream("postgres-archive.properties")) {
      digests.load(in);
    }
    return digests.getProperty("linux-x86_64");
  }

  private static Set<PosixFilePermission> rwxrx() {
    return PosixFilePermissions.fromString("rwxr-xr-x");
  }
}
