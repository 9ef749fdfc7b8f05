package io.livegate.cli.local;

import com.sun.net.httpserver.HttpServer;
import io.livegate.core.DaemonThreads;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * The apply oracle's log: a provisioner appends a line to a file of the test each time an apply
 * runs it. The sandbox leaves nothing outside the repository writable (docs/security.md), the
 * test's directory and {@code /tmp} included, so the provisioner posts the line over loopback with
 * curl to a server in the test JVM, which appends it to the file; the file outlives every livegate
 * and terraform the test kills.
 *
 * <p>A test can also {@link #hold} a line: the provisioner that posts it is answered only once the
 * test lets it go, so the apply is known to be running while the test does what it must (send a
 * signal) however slowly a loaded machine runs either side.
 */
final class Oracle {
  private static final Map<Path, HttpServer> SERVERS = new ConcurrentHashMap<>();
  private static final Map<String, Hold> HOLDS = new ConcurrentHashMap<>();

  /** How long a held provisioner waits at most for its test: a test that failed never lets go. */
  private static final long HOLD_MINUTES = 10;

  /**
   * A provisioner held at its line: {@link #reached} once it posted, answered on {@link #close}.
   */
  static final class Hold implements AutoCloseable {
    private final String key;
    private final CountDownLatch reached = new CountDownLatch(1);
    private final CountDownLatch released = new CountDownLatch(1);

    private Hold(String key) {
      this.key = key;
    }

    /** Whether the provisioner has posted its line (which is in the log by then) and waits. */
    boolean reached() {
      return reached.getCount() == 0;
    }

    /** Lets the provisioner go on; later posts of the same line are not held. */
    @Override
    public void close() {
      HOLDS.remove(key, this);
      released.countDown();
    }
  }

  private Oracle() {}

  /** The shell command (for a local-exec provisioner) that appends {@code line} to {@code log}. */
  static String append(Path log, String line) {
    if (line.contains("'")) {
      throw new IllegalArgumentException("an oracle line is put in single quotes: " + line);
    }
    return "curl -sS --fail --data-binary '" + line + "' " + url(log);
  }

  /**
   * The shell command that appends what {@code command} prints (its standard output and error) to
   * {@code log}, as one post: for code in the sandbox, which can write no file the test reads, to
   * tell the test what it saw.
   */
  static String appendOutputOf(Path log, String command) {
    return "(" + command + ") 2>&1 | curl -sS --fail --data-binary @- " + url(log);
  }

  /** Where the provisioners post their lines for {@code log}. */
  static String url(Path log) {
    return "http://127.0.0.1:"
        + SERVERS.computeIfAbsent(log, Oracle::serve).getAddress().getPort()
        + "/";
  }

  /** Holds the next provisioner that appends {@code line} to {@code log}, until closed. */
  static Hold hold(Path log, String line) {
    String key = log + "\n" + line;
    Hold hold = new Hold(key);
    if (HOLDS.putIfAbsent(key, hold) != null) {
      throw new IllegalStateException("already held: " + line);
    }
    return hold;
  }

  private static HttpServer serve(Path log) {
    try {
      HttpServer server =
          HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
      server.createContext(
          "/",
          exchange -> {
            String line =
                new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
            synchronized (log) {
              Files.writeString(
                  log,
                  line + "\n",
                  StandardCharsets.UTF_8,
                  StandardOpenOption.CREATE,
                  StandardOpenOption.APPEND);
            }
            Hold hold = HOLDS.get(log + "\n" + line);
            if (hold != null) {
              hold.reached.countDown();
              try {
                hold.released.await(HOLD_MINUTES, TimeUnit.MINUTES);
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
            }
            exchange.sendResponseHeaders(204, -1);
            exchange.close();
          });
      // a held provisioner must not hold the others' posts up
      server.setExecutor(Executors.newCachedThreadPool(DaemonThreads.named("oracle")));
      server.start();
      return server;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
