package io.livegate.cli.local;

import com.sun.net.httpserver.HttpServer;
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

/**
 * The apply oracle's log: a provisioner appends a line to a file of the test each time an apply
 * runs it. The sandbox leaves nothing outside the repository writable (docs/security.md), the
 * test's directory included, so the provisioner posts the line over loopback with curl to a server
 * in the test JVM, which appends it to the file; the file outlives every livegate and terraform the
 * test kills.
 */
final class Oracle {
  private static final Map<Path, HttpServer> SERVERS = new ConcurrentHashMap<>();

  private Oracle() {}

  /** The shell command (for a local-exec provisioner) that appends {@code line} to {@code log}. */
  static String append(Path log, String line) {
    if (line.contains("'")) {
      throw new IllegalArgumentException("an oracle line is put in single quotes: " + line);
    }
    int port = SERVERS.computeIfAbsent(log, Oracle::serve).getAddress().getPort();
    return "curl -sS --fail --data-binary '" + line + "' http://127.0.0.1:" + port + "/";
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
            exchange.sendResponseHeaders(204, -1);
            exchange.close();
          });
      server.start();
      return server;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
