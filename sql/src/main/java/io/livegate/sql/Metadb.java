package io.livegate.sql;

import io.livegate.core.LivegateException;
import java.time.Clock;
import javax.sql.DataSource;
import org.jdbi.v3.core.Jdbi;
import org.jdbi.v3.postgres.PostgresPlugin;

/**
 * The metadb: migrates the schema and builds the stores. Migrations are idempotent, so every entry
 * point may call {@link #open} on start.
 */
public final class Metadb {
  private final LazyJdbi jdbi;

  private Metadb(LazyJdbi jdbi) {
    this.jdbi = jdbi;
  }

  /**
   * Migrates the schema behind {@code dataSource} to the latest version and opens it.
   *
   * @throws LivegateException when the database cannot be reached or migrated (fail closed)
   */
  public static Metadb open(DataSource dataSource) {
    migrate(dataSource);
    return connect(dataSource);
  }

  /**
   * Migrates the schema behind {@code dataSource} to the latest version, for a caller that opens it
   * later ({@link #connect}); a schema that is current already is left to itself without Flyway.
   *
   * @throws LivegateException when the database cannot be reached or migrated (fail closed)
   */
  public static void migrate(DataSource dataSource) {
    Migrations.migrate(dataSource);
  }

  /**
   * Opens the metadb without migrating it: what Lambdas and tasks do, since the schema is migrated
   * once per deployment of livegate itself. Nothing connects until the first store call, and JDBI
   * itself is set up then too (see {@link LazyJdbi}).
   */
  public static Metadb connect(DataSource dataSource) {
    return new Metadb(
        new LazyJdbi(() -> Jdbi.create(dataSource).installPlugin(new PostgresPlugin())));
  }

  /**
   * Sets JDBI up now rather than at the first store call, without connecting: for a caller whose
   * database is still starting, which can overlap the two (its first statement then only waits for
   * the database). Returns this metadb.
   */
  public Metadb prepared() {
    jdbi.get();
    return this;
  }

  public JdbiDeploymentStore deployments() {
    return new JdbiDeploymentStore(jdbi);
  }

  public JdbiExecutionStore executions() {
    return new JdbiExecutionStore(jdbi);
  }

  public JdbiVoteStore votes() {
    return new JdbiVoteStore(jdbi);
  }

  public JdbiDeliveryLog deliveries() {
    return new JdbiDeliveryLog(jdbi);
  }

  public JdbiOpenPullRequests pullRequests() {
    return new JdbiOpenPullRequests(jdbi);
  }

  public JdbiStatusLedger statuses() {
    return new JdbiStatusLedger(jdbi);
  }

  public MetadbMergeLock mergeLock(Clock clock) {
    return new MetadbMergeLock(jdbi, clock);
  }

  /** For tests and benchmarks that inspect or prepare tables directly. */
  public Jdbi jdbi() {
    return jdbi.get();
  }
}
