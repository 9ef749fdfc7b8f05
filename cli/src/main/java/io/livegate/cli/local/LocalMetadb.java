package io.livegate.cli.local;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.livegate.core.LivegateException;
import io.livegate.sql.Metadb;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * An embedded PostgreSQL whose data lives in the state directory. A run killed with kill -9 leaves
 * its server running; the next start finds it through postmaster.pid and shuts it down cleanly
 * first, so the data directory is never shared by two servers.
 *
 * <p>Connections are pooled: opening one costs 6 to 12 ms, far more than the statements a store
 * runs, and each flow step runs a few (docs/benchmarks.md).
 */
public final class LocalMetadb implements AutoCloseable {
  private static final int MAX_CONNECTIONS = 16;

  private final EmbeddedPostgres postgres;
  private final HikariDataSource pool;
  private final Metadb metadb;

  private LocalMetadb(EmbeddedPostgres postgres) {
    this.postgres = postgres;
    HikariConfig config = new HikariConfig();
    config.setDataSource(postgres.getPostgresDatabase());
    config.setPoolName("livegate-metadb");
    config.setMaximumPoolSize(MAX_CONNECTIONS);
    config.setMinimumIdle(2);
    this.pool = new HikariDataSource(config);
    this.metadb = Metadb.open(pool);
  }

  public static LocalMetadb start(Path dataDirectory) {
    stopLeftoverServer(dataDirectory);
    try {
      return new LocalMetadb(
          EmbeddedPostgres.builder()
              .setDataDirectory(dataDirectory)
              .setCleanDataDirectory(false)
              .setPGStartupWait(Duration.ofSeconds(30))
              .start());
    } catch (IOException | RuntimeException e) {
      throw new LivegateException(
          "cannot start the local metadb in " + dataDirectory + ": " + e.getMessage(), e);
    }
  }

  public Metadb metadb() {
    return metadb;
  }

  @Override
  public void close() {
    pool.close();
    try {
      postgres.close();
    } catch (IOException e) {
      throw new LivegateException(
          "the local metadb did not shut down cleanly: " + e.getMessage(), e);
    }
  }

  private static void stopLeftoverServer(Path dataDirectory) {
    Path pidFile = dataDirectory.resolve("postmaster.pid");
    if (!Files.exists(pidFile)) {
      return;
    }
    Optional<ProcessHandle> server;
    try {
      List<String> lines = Files.readAllLines(pidFile);
      server =
          lines.isEmpty()
              ? Optional.empty()
              : ProcessHandle.of(Long.parseLong(lines.get(0).strip()));
    } catch (IOException | NumberFormatException e) {
      return;
    }
    server
        .filter(ProcessHandle::isAlive)
        .ifPresent(
            process -> {
              // SIGTERM asks PostgreSQL for a smart shutdown; its clients died with the killed run.
              process.destroy();
              Instant deadline = Instant.now().plusSeconds(30);
              while (process.isAlive() && Instant.now().isBefore(deadline)) {
                try {
                  Thread.sleep(100);
                } catch (InterruptedException e) {
                  Thread.currentThread().interrupt();
                  return;
                }
              }
              if (process.isAlive()) {
                throw new LivegateException(
                    "a PostgreSQL server from an earlier run (pid "
                        + process.pid()
                        + ") still holds "
                        + dataDirectory
                        + "; stop it and try again");
              }
            });
  }
}
