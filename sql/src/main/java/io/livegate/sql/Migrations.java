package io.livegate.sql;

import io.livegate.core.LivegateException;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.CRC32;
import javax.sql.DataSource;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.FlywayException;

/**
 * The Flyway migration of the metadb schema. It is a class of its own so that {@link Metadb} names
 * no Flyway type: the Lambdas, which never migrate, ship without Flyway.
 *
 * <p>Flyway runs only when the schema history differs from the migrations bundled here ({@link
 * #BUNDLED}, each with Flyway's checksum). On a metadb that is already current, which is every
 * local command after the first, Flyway would load some 400 classes, scan the CLI jar's 33,000
 * entries for migrations and validate them, to do nothing: a large share of {@code livegate
 * status}'s start (docs/benchmarks.md, "Start-up"). Any difference (a new migration, a failed or
 * edited one, a newer metadb than this build) goes to Flyway, which migrates or refuses as before.
 */
final class Migrations {
  private static final String LOCATION = "db/migration";

  /**
   * The migrations in {@code src/main/resources/db/migration}, in order; {@code MigrationsTest}
   * checks this list against that directory.
   */
  static final List<String> BUNDLED =
      List.of(
          "V1__metadb.sql",
          "V2__flow_state.sql",
          "V3__approval_token.sql",
          "V4__merge_queue.sql",
          "V5__merge_head.sql",
          "V6__destroy_deleted_units.sql",
          "V7__drift_reconcile.sql",
          "V8__plan_reference.sql",
          "V9__trunk_order.sql",
          "V10__vote_reason.sql",
          "V11__pull_request_title.sql");

  private Migrations() {}

  /**
   * @throws LivegateException when the database cannot be reached or migrated (fail closed)
   */
  static void migrate(DataSource dataSource) {
    if (current(dataSource)) {
      return;
    }
    try {
      Flyway.configure().dataSource(dataSource).locations("classpath:" + LOCATION).load().migrate();
    } catch (FlywayException e) {
      throw new LivegateException("cannot migrate the metadb: " + e.getMessage(), e);
    }
  }

  /**
   * Whether the schema history holds exactly the bundled migrations, each applied successfully and
   * with the checksum Flyway gives its file. Anything else, an unreadable history included, is "not
   * current": Flyway then decides.
   */
  static boolean current(DataSource dataSource) {
    List<Applied> applied = new ArrayList<>();
    try (Connection connection = dataSource.getConnection();
        Statement statement = connection.createStatement();
        ResultSet rows =
            statement.executeQuery(
                "SELECT version, checksum, success FROM flyway_schema_history"
                    + " WHERE version IS NOT NULL ORDER BY installed_rank")) {
      while (rows.next()) {
        int checksum = rows.getInt(2);
        applied.add(
            new Applied(rows.getString(1), rows.wasNull() ? null : checksum, rows.getBoolean(3)));
      }
    } catch (SQLException noHistoryYet) {
      return false;
    }
    return applied.equals(bundled());
  }

  private static List<Applied> bundled() {
    List<Applied> bundled = new ArrayList<>();
    for (String name : BUNDLED) {
      bundled.add(
          new Applied(
              name.substring(1, name.indexOf("__")), checksum(LOCATION + "/" + name), true));
    }
    return bundled;
  }

  /**
   * Flyway's checksum of a SQL migration (its {@code ChecksumCalculator}): a CRC32 over the UTF-8
   * bytes of each line without its line break, a byte-order mark dropped.
   */
  static int checksum(String resource) {
    CRC32 crc = new CRC32();
    try (InputStream in = Migrations.class.getClassLoader().getResourceAsStream(resource)) {
      if (in == null) {
        throw new IllegalStateException(resource + " is not bundled");
      }
      BufferedReader lines = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
      boolean first = true;
      for (String line = lines.readLine(); line != null; line = lines.readLine()) {
        if (first && line.startsWith("\uFEFF")) {
          line = line.substring(1);
        }
        first = false;
        crc.update(line.getBytes(StandardCharsets.UTF_8));
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + resource, e);
    }
    return (int) crc.getValue();
  }

  private record Applied(String version, Integer checksum, boolean success) {}
}
