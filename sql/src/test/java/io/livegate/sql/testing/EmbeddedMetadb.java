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
 * #fresh()} creates an empty database of its own, so tests never see each other's rows.
 *
 * <p>The schema is migrated once per JVM, into a template database that every fresh metadb is
 * copied from ({@code CREATE DATABASE ... TEMPLATE}): copying the migrated files is much cheaper
 * than running Flyway again for each of the hundreds of test databases of a build.
 */
public final class EmbeddedMetadb {
  private static final AtomicInteger DATABASES = new AtomicInteger();

  /** Enough for the racing tests' threads; PostgreSQL allows 100 by default. */
  private static final int MAX_CONNECTIONS = 20;

  /** The migrated, empty metadb that {@link #fresh()} copies; nothing stays connected to it. */
  private static final String TEMPLATE = "livegate_template";

  private static EmbeddedPostgres postgres;
  private static boolean templateMigrated;

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
    return Metadb.connect(pooled(copyOf(migratedTemplate())));
  }

  /**
   * A new empty database, not yet migrated, behind a connection pool: opening a connection costs
   * more than most of the statements the stores run.
   */
  public static DataSource freshDataSource() {
    return pooled(copyOf("template1"));
  }

  private static DataSource pooled(String name) {
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
    return postgres().getJdbcUrl(USER, copyOf(migratedTemplate()));
  }

  /**
   * The template database, migrated by the first caller. Flyway's connections are closed when it
   * returns: PostgreSQL copies a template only while no session is connected to it.
   */
  private static synchronized String migratedTemplate() {
    if (!templateMigrated) {
      copy("template1", TEMPLATE);
      Metadb.open(postgres().getDatabase(USER, TEMPLATE));
      templateMigrated = true;
    }
    return TEMPLATE;
  }

  private static String copyOf(String template) {
    return copy(template, "livegate_test_" + DATABASES.incrementAndGet());
  }

  private static String copy(String template, String name) {
    try (Connection connection = postgres().getPostgresDatabase().getConnection();
        Statement statement = connection.createStatement()) {
      statement.execute("CREATE DATABASE " + name + " TEMPLATE " + template);
    } catch (SQLException e) {
      throw new IllegalStateException("cannot create the test database " + name, e);
    }
    return name;
  }
}
