package io.livegate.cli.local;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.livegate.core.LivegateException;
import io.livegate.sql.Metadb;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.Supplier;
import java.util.logging.Logger;
import javax.sql.DataSource;

/**
 * An embedded PostgreSQL whose data lives in the state directory. It is durable: the embedded
 * server's test defaults (no fsync, asynchronous commit) are turned back on, so an outcome that was
 * recorded survives a crash of livegate and the server together. A run killed with kill -9 leaves
 * its server running; the next start finds it through postmaster.pid and shuts it down cleanly
 * first, so the data directory is never shared by two servers. A postmaster.pid whose PID is not a
 * PostgreSQL server of this data directory (the PID was reused after a reboot or a crash) is stale:
 * it is removed, and that process is never signalled.
 *
 * <p>Only livegate may log in. The server answers on localhost only and has no Unix socket (its
 * default directory, /tmp, is writable by every user); every login needs the password in {@link
 * #passwordFile} (SCRAM), a random secret readable by its owner only. A data directory from before
 * this rule (it trusted every local login) gets the password on its first start.
 *
 * <p>zonky makes the data directory and unpacks PostgreSQL's binaries; on a data directory made
 * earlier livegate runs the server from those binaries itself ({@link PostgresProcess}), which
 * starts and stops in a fraction of zonky's time.
 *
 * <p>Connections are pooled: opening one costs 6 to 12 ms, far more than the statements a store
 * runs, and each flow step runs a few (docs/benchmarks.md).
 *
 * <p>A run starts it in the background ({@link #starting}): the server's start (the largest part of
 * a {@code deploy}'s wait for its first plan, docs/benchmarks.md "Start-up") then overlaps the web
 * server's start and the repository's checks, and the first statement waits for it (and fails as
 * the start did).
 */
public final class LocalMetadb implements AutoCloseable {
  private static final int MAX_CONNECTIONS = 16;
  private static final int START_ATTEMPTS = 3;
  private static final String HBA =
      "# livegate: every login needs the password (metadb-password in the state directory)\n"
          + "host all all 127.0.0.1/32 scram-sha-256\n"
          + "host all all ::1/128 scram-sha-256\n";

  private final CompletableFuture<Server> server;
  private final Metadb metadb;

  /**
   * The server's settings: durable (the library's test defaults turned back on), on localhost only,
   * with no Unix socket, and the library's own defaults, which a server run from its binaries gets
   * too.
   */
  private static final Map<String, String> SETTINGS =
      Map.of(
          "fsync", "on",
          "synchronous_commit", "on",
          "full_page_writes", "on",
          "listen_addresses", "localhost",
          "unix_socket_directories", "",
          "timezone", "UTC",
          "max_connections", "300");

  private static final Duration START_WAIT = Duration.ofSeconds(30);

  /** A started, migrated server and the pool of connections to it. */
  private record Server(Postgres postgres, HikariDataSource pool) {}

  /**
   * A running server: the library's, or one run from the binaries it unpacked ({@link
   * PostgresProcess}), which starts and stops in less time.
   */
  interface Postgres {
    int port();

    /** Logins to its {@code postgres} database, as {@code postgres}, with the password. */
    DataSource database();

    /** Stops it cleanly and waits until it has. */
    void close() throws IOException;
  }

  private LocalMetadb(CompletableFuture<Server> server) {
    this.server = server;
    // JDBI connects at the first statement, which waits for the server there
    this.metadb = Metadb.connect(new Awaited(() -> server().pool()));
  }

  /** Where the password of {@code dataDirectory}'s server is kept: beside it, in the state dir. */
  static Path passwordFile(Path dataDirectory) {
    return dataDirectory.resolveSibling(dataDirectory.getFileName() + "-password");
  }

  /**
   * Starts the server of {@code dataDirectory} and migrates it, and returns once both are done.
   *
   * @throws LivegateException when it cannot start or be migrated
   */
  public static LocalMetadb start(Path dataDirectory) {
    return new LocalMetadb(CompletableFuture.completedFuture(serve(dataDirectory)));
  }

  /**
   * Starts the server of {@code dataDirectory} and migrates it in the background, and returns at
   * once. Whatever would have made {@link #start} fail is thrown by the first statement instead.
   */
  public static LocalMetadb starting(Path dataDirectory) {
    return new LocalMetadb(
        CompletableFuture.supplyAsync(
            () -> serve(dataDirectory),
            task -> {
              Thread thread = new Thread(task, "metadb-start");
              thread.setDaemon(true);
              thread.start();
            }));
  }

  private static Server serve(Path dataDirectory) {
    Server server = startServer(dataDirectory);
    try {
      Metadb.migrate(server.pool());
      return server;
    } catch (RuntimeException e) {
      server.pool().close();
      stopQuietly(server.postgres());
      throw e;
    }
  }

  /**
   * The pool of connections to {@code postgres}, with one open: it is the one that checks whose
   * server answered, and the first statements use it (a login costs a SCRAM exchange, some 4,096
   * rounds of HMAC); empty when the server refused that login.
   */
  private static Optional<HikariDataSource> pool(Postgres postgres) {
    HikariConfig config = new HikariConfig();
    config.setDataSource(postgres.database());
    config.setPoolName("livegate-metadb");
    config.setMaximumPoolSize(MAX_CONNECTIONS);
    config.setMinimumIdle(2);
    try {
      return Optional.of(new HikariDataSource(config));
    } catch (RuntimeException refused) {
      return Optional.empty();
    }
  }

  private static Server startServer(Path dataDirectory) {
    Path passwordFile = passwordFile(dataDirectory);
    String password = OwnerOnly.secret(passwordFile);
    stopLeftoverServer(dataDirectory);
    boolean fresh = !Files.exists(dataDirectory.resolve("PG_VERSION"));
    // A new cluster needs initdb, which the library runs; so do binaries not unpacked yet.
    Optional<Path> binaries = fresh ? Optional.empty() : PostgresProcess.unpackedBinaries();
    for (int attempt = 1; ; attempt++) {
      Postgres postgres;
      try {
        postgres =
            binaries.isPresent()
                ? PostgresProcess.start(
                    binaries.get(), dataDirectory, freePort(), SETTINGS, password, START_WAIT)
                : startEmbedded(dataDirectory, fresh, password);
      } catch (IOException | RuntimeException e) {
        // the port the server was given may have been taken before it could bind it
        if (binaries.isPresent() && attempt < START_ATTEMPTS) {
          continue;
        }
        throw new LivegateException(
            "cannot start the local metadb in " + dataDirectory + ": " + e.getMessage(), e);
      }
      Optional<HikariDataSource> pool = pool(postgres);
      if (pool.isPresent() && serves(pool.get(), dataDirectory)) {
        try {
          requirePassword(pool.get(), dataDirectory, password);
          // the embedded server's own lock file is made world-readable
          OwnerOnly.restrict(dataDirectory.resolve("epg-lock"));
          return new Server(postgres, pool.get());
        } catch (RuntimeException e) {
          pool.get().close();
          stopQuietly(postgres);
          throw e;
        }
      }
      // The free port the server was given was taken before it could bind it, and another
      // PostgreSQL answered there: nothing may be read from it, let alone migrated.
      pool.ifPresent(HikariDataSource::close);
      stopQuietly(postgres);
      if (attempt == START_ATTEMPTS) {
        throw new LivegateException(
            "cannot start the local metadb in "
                + dataDirectory
                + ": "
                + START_ATTEMPTS
                + " times, another PostgreSQL server answered on the port it was given");
      }
    }
  }

  /** The library's start: it unpacks the binaries first if need be, and runs initdb if fresh. */
  private static Postgres startEmbedded(Path dataDirectory, boolean fresh, String password)
      throws IOException {
    EmbeddedPostgres.Builder builder =
        EmbeddedPostgres.builder()
            .setDataDirectory(dataDirectory)
            .setCleanDataDirectory(false)
            .setPGStartupWait(START_WAIT)
            .setConnectConfig("password", password);
    SETTINGS.forEach(builder::setServerConfig);
    if (fresh) {
      // initdb's own options: a new cluster needs the password from its first login on
      builder
          .setLocaleConfig("auth", "scram-sha-256")
          .setLocaleConfig("pwfile", passwordFile(dataDirectory).toString());
    }
    EmbeddedPostgres postgres = builder.start();
    return new Postgres() {
      @Override
      public int port() {
        return postgres.getPort();
      }

      @Override
      public DataSource database() {
        return postgres.getPostgresDatabase();
      }

      @Override
      public void close() throws IOException {
        postgres.close();
      }
    };
  }

  /** A port free a moment ago, as the library picks one. */
  private static int freePort() {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    } catch (IOException e) {
      throw new LivegateException("cannot find a free port: " + e.getMessage(), e);
    }
  }

  /** The started server; waits for a start in the background, and throws what made it fail. */
  private Server server() {
    try {
      return server.join();
    } catch (CompletionException e) {
      if (e.getCause() instanceof RuntimeException cause) {
        throw cause;
      }
      throw e;
    }
  }

  /** Whether the server that {@code database} logs in to keeps its data in ours. */
  static boolean serves(DataSource database, Path dataDirectory) {
    try (Connection connection = database.getConnection();
        Statement statement = connection.createStatement();
        ResultSet result = statement.executeQuery("SHOW data_directory")) {
      return result.next()
          && Path.of(result.getString(1)).toRealPath().equals(dataDirectory.toRealPath());
    } catch (SQLException | IOException e) {
      return false;
    }
  }

  /**
   * Makes every login need the password: sets it (a data directory from before this rule has none)
   * and replaces pg_hba.conf, unless that is done already.
   */
  private static void requirePassword(DataSource database, Path dataDirectory, String password) {
    Path hba = dataDirectory.resolve("pg_hba.conf");
    try {
      if (Files.readString(hba).equals(HBA)) {
        return;
      }
      if (!password.matches("[0-9a-f]+")) {
        throw new LivegateException(passwordFile(dataDirectory) + " is not a livegate password");
      }
      try (Connection connection = database.getConnection();
          Statement statement = connection.createStatement()) {
        statement.execute("SET password_encryption = 'scram-sha-256'");
        // ALTER ROLE takes no bound parameters; the password is hex, checked above
        statement.execute("ALTER ROLE postgres PASSWORD '" + password + "'");
        Files.writeString(hba, HBA);
        statement.execute("SELECT pg_reload_conf()");
      }
    } catch (IOException | SQLException e) {
      throw new LivegateException(
          "cannot make the local metadb in "
              + dataDirectory
              + " require its password: "
              + e.getMessage(),
          e);
    }
  }

  /** The port the server answers on, on localhost. */
  int port() {
    return server().postgres().port();
  }

  private static void stopQuietly(Postgres postgres) {
    try {
      postgres.close();
    } catch (IOException | RuntimeException e) {
      // it did not start: there is nothing of ours to stop
    }
  }

  public Metadb metadb() {
    return metadb;
  }

  /**
   * Shuts the server down cleanly; one still starting in the background is waited for first, so
   * that no server outlives the state directory's lock. One that failed to start has nothing to
   * stop (its failure was thrown to the statements that needed it).
   */
  @Override
  public void close() {
    Server started;
    try {
      started = server();
    } catch (RuntimeException failedToStart) {
      return;
    }
    started.pool().close();
    try {
      started.postgres().close();
    } catch (IOException e) {
      throw new LivegateException(
          "the local metadb did not shut down cleanly: " + e.getMessage(), e);
    }
  }

  /** A data source whose connections come from a server that may still be starting. */
  private record Awaited(Supplier<DataSource> started) implements DataSource {
    @Override
    public Connection getConnection() throws SQLException {
      return started.get().getConnection();
    }

    @Override
    public Connection getConnection(String user, String password) throws SQLException {
      return started.get().getConnection(user, password);
    }

    @Override
    public PrintWriter getLogWriter() throws SQLException {
      return started.get().getLogWriter();
    }

    @Override
    public void setLogWriter(PrintWriter out) throws SQLException {
      started.get().setLogWriter(out);
    }

    @Override
    public void setLoginTimeout(int seconds) throws SQLException {
      started.get().setLoginTimeout(seconds);
    }

    @Override
    public int getLoginTimeout() throws SQLException {
      return started.get().getLoginTimeout();
    }

    @Override
    public Logger getParentLogger() throws SQLFeatureNotSupportedException {
      return started.get().getParentLogger();
    }

    @Override
    public <T> T unwrap(Class<T> type) throws SQLException {
      return started.get().unwrap(type);
    }

    @Override
    public boolean isWrapperFor(Class<?> type) throws SQLException {
      return started.get().isWrapperFor(type);
    }
  }

  private static void stopLeftoverServer(Path dataDirectory) {
    Path pidFile = dataDirectory.resolve("postmaster.pid");
    if (!Files.exists(pidFile)) {
      return;
    }
    Optional<ProcessHandle> named;
    try {
      List<String> lines = Files.readAllLines(pidFile);
      named =
          lines.isEmpty()
              ? Optional.empty()
              : ProcessHandle.of(Long.parseLong(lines.get(0).strip()));
    } catch (IOException | NumberFormatException e) {
      named = Optional.empty();
    }
    Optional<ProcessHandle> server =
        named.filter(ProcessHandle::isAlive).filter(process -> serves(process, dataDirectory));
    if (server.isEmpty()) {
      // PostgreSQL refuses to start while the PID in its lock file is alive, whoever that is.
      try {
        Files.deleteIfExists(pidFile);
      } catch (IOException e) {
        throw new LivegateException(
            "cannot remove the stale " + pidFile + ": " + e.getMessage(), e);
      }
      return;
    }
    ProcessHandle process = server.get();
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
  }

  /**
   * Whether {@code process} is a PostgreSQL server of {@code dataDirectory}: its program is
   * postgres, and (where /proc shows it) its working directory, which the server sets to its data
   * directory, is that directory.
   */
  static boolean serves(ProcessHandle process, Path dataDirectory) {
    boolean postgres =
        process
            .info()
            .command()
            .map(command -> Path.of(command).getFileName().toString().equals("postgres"))
            .orElse(false);
    if (!postgres) {
      return false;
    }
    Path cwd = Path.of("/proc", Long.toString(process.pid()), "cwd");
    if (!Files.exists(cwd, LinkOption.NOFOLLOW_LINKS)) {
      return true;
    }
    try {
      return cwd.toRealPath().equals(dataDirectory.toRealPath());
    } catch (IOException e) {
      throw new LivegateException(
          "postmaster.pid in "
              + dataDirectory
              + " names a PostgreSQL server (pid "
              + process.pid()
              + ") whose data directory cannot be read ("
              + e.getMessage()
              + "); stop it and try again",
          e);
    }
  }
}
