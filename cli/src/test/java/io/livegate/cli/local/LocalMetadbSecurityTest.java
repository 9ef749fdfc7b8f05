package io.livegate.cli.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Other users of the machine can neither log in to the local metadb nor read the state directory:
 * its password, vote key, plans and mails.
 */
class LocalMetadbSecurityTest {
  @TempDir Path dir;

  @Test
  void loggingInWithoutThePasswordFailsAndWithItSucceeds() throws Exception {
    StateDirectory state = StateDirectory.at(dir.resolve("state"));
    try (LocalMetadb metadb = LocalMetadb.start(state.metadb())) {
      String password = Files.readString(LocalMetadb.passwordFile(state.metadb())).strip();

      assertThatThrownBy(() -> login(metadb.port(), ""))
          .isInstanceOf(SQLException.class)
          .hasMessageContaining("password");
      assertThatThrownBy(() -> login(metadb.port(), "guessed"))
          .isInstanceOf(SQLException.class)
          .hasMessageContaining("password authentication failed");
      assertThat(login(metadb.port(), password)).isEqualTo(1);
    }
  }

  @Test
  void aMetadbThatTrustedEveryLocalLoginRequiresThePasswordAfterItsFirstStart() throws Exception {
    Path data = Files.createDirectories(dir.resolve("state").resolve("metadb"));
    int port;
    try (EmbeddedPostgres before =
        EmbeddedPostgres.builder().setDataDirectory(data).setCleanDataDirectory(false).start()) {
      port = before.getPort();
      assertThat(login(port, "")).as("the old metadb trusted every login").isEqualTo(1);
    }

    try (LocalMetadb metadb = LocalMetadb.start(data)) {
      assertThatThrownBy(() -> login(metadb.port(), ""))
          .isInstanceOf(SQLException.class)
          .hasMessageContaining("password");
      assertThat(login(metadb.port(), Files.readString(LocalMetadb.passwordFile(data)).strip()))
          .isEqualTo(1);
    }
  }

  @Test
  void nothingInTheStateDirectoryIsReadableByOtherUsersAndAnOldOneIsMigrated() throws Exception {
    Path root = Files.createDirectories(dir.resolve("state"));
    Files.setPosixFilePermissions(root, PosixFilePermissions.fromString("rwxr-xr-x"));
    Path plans = Files.createDirectories(root.resolve("plans"));
    Path oldPlan = Files.writeString(plans.resolve("d1-app.tfplan"), "an old plan");
    Files.setPosixFilePermissions(oldPlan, PosixFilePermissions.fromString("rw-r--r--"));
    Path outbox = Files.createDirectories(root.resolve("outbox"));
    Path oldMail = Files.writeString(outbox.resolve("vote.eml"), "approve: http://127.0.0.1/v/t");
    Files.setPosixFilePermissions(oldMail, PosixFilePermissions.fromString("rw-r--r--"));

    StateDirectory state = StateDirectory.at(root);
    try (LocalMetadb metadb = LocalMetadb.start(state.metadb())) {
      List<String> readable = readableByOthers(root);

      System.out.println("readable by group or others: " + readable);
      assertThat(readable).isEmpty();
      assertThat(Files.list(root).map(path -> path.getFileName().toString()))
          .contains("metadb", "metadb-password", "plans", "outbox");
    }
  }

  private static List<String> readableByOthers(Path root) throws IOException {
    try (Stream<Path> paths = Files.walk(root)) {
      return paths
          .filter(path -> !Files.isSymbolicLink(path))
          .filter(
              path -> {
                try {
                  var permissions = Files.getPosixFilePermissions(path, LinkOption.NOFOLLOW_LINKS);
                  return permissions.contains(PosixFilePermission.OTHERS_READ)
                      || permissions.contains(PosixFilePermission.GROUP_READ)
                      || permissions.contains(PosixFilePermission.OTHERS_EXECUTE);
                } catch (IOException e) {
                  throw new java.io.UncheckedIOException(e);
                }
              })
          .map(path -> root.relativize(path) + " " + permissions(path))
          .toList();
    }
  }

  private static String permissions(Path path) {
    try {
      return PosixFilePermissions.toString(
          Files.getPosixFilePermissions(path, LinkOption.NOFOLLOW_LINKS));
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  private static int login(int port, String password) throws SQLException {
    try (Connection connection =
            DriverManager.getConnection(
                "jdbc:postgresql://localhost:" + port + "/postgres", "postgres", password);
        ResultSet result = connection.createStatement().executeQuery("SELECT 1")) {
      result.next();
      return result.getInt(1);
    }
  }
}
