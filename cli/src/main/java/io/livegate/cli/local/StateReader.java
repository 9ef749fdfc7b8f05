package io.livegate.cli.local;

import io.livegate.core.LivegateException;
import io.livegate.sql.JdbiDeploymentStore;
import io.livegate.sql.JdbiExecutionStore;
import io.livegate.sql.JdbiVoteStore;
import io.livegate.sql.Metadb;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import org.postgresql.ds.PGSimpleDataSource;

/**
 * Read-only access to a state directory's history, for {@code status} and {@code ui}, whether or
 * not a run holds it. The metadb's data directory belongs to one PostgreSQL server at a time, and
 * the process holding the state directory's lock runs it; so while a run holds the lock, a reader
 * logs in to that server (its port is in postmaster.pid, its password in the state directory) on a
 * read-only connection, and sees what the run records as it records it. When no run holds the lock,
 * the reader takes it and starts the server itself, as a run would.
 *
 * <p>It never creates a state directory: one that is not there is an error, since a mistyped {@code
 * --state-dir} must not read as "no deployments".
 */
public final class StateReader implements AutoCloseable {
  /** How long a reader waits for a starting run's server to accept logins. */
  private static final Duration ATTACH_WAIT = Duration.ofSeconds(30);

  private final Path root;
  private final Metadb metadb;
  private final AutoCloseable owned;
  private final String holder;

  private StateReader(Path root, Metadb metadb, AutoCloseable owned, String holder) {
    this.root = root;
    this.metadb = metadb;
    this.owned = owned;
    this.holder = holder;
  }

  /** Opens the state directory at {@code directory} for reading; it must exist already. */
  public static StateReader open(Path directory) {
    Path root = directory.toAbsolutePath().normalize();
    StateDirectory.requireExisting(root);
    Path data = root.resolve("metadb");
    Instant deadline = Instant.now().plus(ATTACH_WAIT);
    while (true) {
      try {
        StateDirectoryLock lock = StateDirectoryLock.take(root);
        try {
          lock.reading();
          if (!Files.isRegularFile(data.resolve("PG_VERSION"))) {
            // a run left its lock file before it made the metadb: there is nothing to read
            throw new LivegateException("there is no metadb in " + root + " yet");
          }
          // The server starts in the background while JDBI is set up here; the first read waits
          // for it, and throws what made its start fail.
          LocalMetadb started = LocalMetadb.starting(data);
          AutoCloseable owned =
              () -> {
                try {
                  started.close();
                } finally {
                  lock.close();
                }
              };
          try {
            return new StateReader(root, started.metadb().prepared(), owned, null);
          } catch (RuntimeException e) {
            // no server may outlive the lock
            started.close();
            throw e;
          }
        } catch (RuntimeException e) {
          lock.close();
          throw e;
        }
      } catch (StateDirectoryLock.Busy busy) {
        Optional<Metadb> attached = attach(data);
        if (attached.isPresent()) {
          return new StateReader(root, attached.get(), () -> {}, busy.holder());
        }
        if (Instant.now().isAfter(deadline)) {
          throw new LivegateException(
              "a livegate run holds "
                  + root
                  + " ("
                  + busy.holder()
                  + ") but its metadb did not accept a login within "
                  + ATTACH_WAIT.toSeconds()
                  + " s",
              busy);
        }
        // The holder is starting or stopping its server: look again shortly.
        sleep();
      }
    }
  }

  /**
   * The metadb served by the run that holds the state directory, on a read-only connection, or
   * empty while that server is not up (starting, or stopping).
   */
  private static Optional<Metadb> attach(Path data) {
    Optional<Integer> port = serverPort(data);
    if (port.isEmpty()) {
      return Optional.empty();
    }
    PGSimpleDataSource source = new PGSimpleDataSource();
    source.setServerNames(new String[] {"localhost"});
    source.setPortNumbers(new int[] {port.get()});
    source.setDatabaseName("postgres");
    source.setUser("postgres");
    source.setPassword(OwnerOnly.secret(LocalMetadb.passwordFile(data)));
    source.setReadOnly(true);
    try (Connection connection = source.getConnection();
        Statement statement = connection.createStatement();
        ResultSet result = statement.executeQuery("SHOW data_directory")) {
      // Whatever answers on that port must be our server, or nothing is read from it.
      if (!result.next() || !Path.of(result.getString(1)).toRealPath().equals(data.toRealPath())) {
        return Optional.empty();
      }
    } catch (SQLException | IOException e) {
      return Optional.empty();
    }
    return Optional.of(Metadb.connect(source));
  }

  /** The port in postmaster.pid once the server says it is ready. */
  private static Optional<Integer> serverPort(Path data) {
    return PostgresProcess.PostmasterPid.read(data)
        .filter(PostgresProcess.PostmasterPid::ready)
        .map(PostgresProcess.PostmasterPid::port);
  }

  private static void sleep() {
    try {
      Thread.sleep(200);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new LivegateException("interrupted while waiting for the metadb", e);
    }
  }

  public Path root() {
    return root;
  }

  /** The run that holds the state directory, when one does: who, since when, its status page. */
  public Optional<String> holder() {
    return Optional.ofNullable(holder);
  }

  public JdbiDeploymentStore deployments() {
    return metadb.deployments();
  }

  public JdbiExecutionStore executions() {
    return metadb.executions();
  }

  public JdbiVoteStore votes() {
    return metadb.votes();
  }

  @Override
  public void close() {
    try {
      owned.close();
    } catch (LivegateException e) {
      throw e;
    } catch (Exception e) {
      throw new LivegateException("cannot close " + root + ": " + e.getMessage(), e);
    }
  }
}
