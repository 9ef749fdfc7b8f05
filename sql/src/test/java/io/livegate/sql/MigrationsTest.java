package io.livegate.sql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.livegate.core.LivegateException;
import io.livegate.sql.testing.EmbeddedMetadb;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;

/** Flyway runs only when the schema history differs from the bundled migrations. */
class MigrationsTest {
  @Test
  void theBundledListIsEveryMigrationInTheDirectoryInVersionOrder() throws IOException {
    List<String> files;
    try (Stream<Path> listed = Files.list(Path.of("src/main/resources/db/migration"))) {
      files =
          listed
              .map(path -> path.getFileName().toString())
              .sorted(
                  Comparator.comparingInt(
                      name -> Integer.parseInt(name.substring(1, name.indexOf("__")))))
              .toList();
    }
    assertThat(Migrations.BUNDLED).isEqualTo(files);
  }

  @Test
  void aMetadbThatFlywayMigratedIsCurrentWithFlywaysOwnChecksums() {
    DataSource database = EmbeddedMetadb.freshDataSource();
    assertThat(Migrations.current(database)).as("no schema history yet").isFalse();

    Metadb.open(database);

    // Flyway wrote each migration's checksum: ours must be the same, or every start runs Flyway
    assertThat(Migrations.current(database)).isTrue();
  }

  @Test
  void anEditedMigrationIsNotCurrentAndFlywayStillRefusesIt() throws SQLException {
    DataSource database = EmbeddedMetadb.freshDataSource();
    Metadb.open(database);
    execute(
        database, "UPDATE flyway_schema_history SET checksum = checksum + 1 WHERE version = '3'");

    assertThat(Migrations.current(database)).isFalse();
    assertThatThrownBy(() -> Metadb.open(database))
        .isInstanceOf(LivegateException.class)
        .hasMessageContaining("cannot migrate the metadb")
        .hasMessageContaining("checksum mismatch for migration version 3");
  }

  @Test
  void aFailedMigrationIsNotCurrent() throws SQLException {
    DataSource database = EmbeddedMetadb.freshDataSource();
    Metadb.open(database);
    execute(database, "UPDATE flyway_schema_history SET success = false WHERE version = '10'");

    assertThat(Migrations.current(database)).isFalse();
  }

  private static void execute(DataSource database, String sql) throws SQLException {
    try (Connection connection = database.getConnection();
        Statement statement = connection.createStatement()) {
      statement.execute(sql);
    }
  }
}
