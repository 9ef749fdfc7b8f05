package io.livegate.sql;

import io.livegate.core.LivegateException;
import javax.sql.DataSource;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.FlywayException;

/**
 * The Flyway migration of the metadb schema. It is a class of its own so that {@link Metadb} names
 * no Flyway type: the Lambdas, which never migrate, ship without Flyway.
 */
final class Migrations {
  private Migrations() {}

  /**
   * @throws LivegateException when the database cannot be reached or migrated (fail closed)
   */
  static void migrate(DataSource dataSource) {
    try {
      Flyway.configure()
          .dataSource(dataSource)
          .locations("classpath:db/migration")
          .load()
          .migrate();
    } catch (FlywayException e) {
      throw new LivegateException("cannot migrate the metadb: " + e.getMessage(), e);
    }
  }
}
