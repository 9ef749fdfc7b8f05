package io.livegate.sql.testing;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.livegate.sql.Metadb;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import javax.sql.DataSource;

/**
 * A real PostgreSQL (zonky's embedded binaries), started once per test JVM. Each call to {@link
 * #fresh()} creates an empty database and migrates it, so tests never see each other's rows.
 */
public final class EmbeddedMetadb {
  private static final AtomicInteger DATABASES = new AtomicInteger();

  /** Enough for the racing tests' threads; PostgreSQL allows 100 by default. */
  private static final int MAX_CONNECTIONS = 20;

  private static EmbeddedPostgres postgres;

  /** The embedded server's superuser, which the tests connect as. */
  public static final String USER = "postgres";

  private EmbeddedMetadb() {}

  public static synchronized EmbeddedPostgres postgres() {
    if (postgres == null) {
      try {
        postgres = EmbeddedPostgres.builder().start();
      } catch (IOException e) {
        throw new UncheckedIOException("cannot start the embedded PostgreSQL", e);
      }
      Runtime.getRuntime()
          .addShutdownHook(
              new Thread(
                  () -> {
                    try {
                      postgres.close();
                    } catch (IOException ignored) {
                      // the JVM is exiting; the data directory is a temp dir either way
                    }
                  }));
    }
    return postgres;
  }

  /** A new, migrated, empty metadb. */
  public static Metadb fresh() {
    return Metadb.open(freshDataSource());
  }

  /**
   * A new empty database, not yet migrated, behind a connection pool: opening a connection costs
   * more than most of the statements the stores run.
   */
  public static DataSource freshDataSource() {
    String name = createDatabase();
    HikariConfig pool = new HikariConfig();
    pool.setDataSource(postgres().getDatabase(USER, name));
    pool.setPoolName(name);
    pool.setMaximumPoolSize(MAX_CONNECTIONS);
    // Connections of finished tests' databases are closed, not kept for the whole run.
    pool.setMinimumIdle(0);
    pool.setIdleTimeout(TimeUnit.SECONDS.toMillis(10));
    return new HikariDataSource(pool);
  }

  /**
   * A new, migrated, empty metadb for a wiring that connects by itself ({@code LIVEGATE_DB_URL},
   * user {@value #USER}, no password): its JDBC URL.
   */
  public static String freshUrl() {
    String name = createDatabase();
    Metadb.open(postgres().getDatabase(USER, name));
    return postgres().getJdbcUrl(USER, name);
  }

  private static String createDatabase() {
    String name = "livegate_test_" + DATABASES.incrementAndGet();
    try (Connection connection = postgres().getPostgresDatabase().getConnection();
        Statement statement = connection.createStatement()) {
      statement.execute("CREATE DATABASE " + name);
    } catch (SQLException e) {
      throw new IllegalStateException("cannot create the test database " + name, e);
    }
    return name;
  }
}
