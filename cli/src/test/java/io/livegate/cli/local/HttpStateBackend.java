package io.livegate.cli.local;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.livegate.core.DaemonThreads;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Executors;

/**
 * A remote state backend for the tests' units: terraform's built-in {@code http} backend, served
 * from the test JVM on loopback and kept in files of the test's directory. The sandbox leaves a
 * unit command nothing writable outside its copy of the repository, {@code /tmp} included
 * (docs/security.md), so state that must outlive the working tree (a deleted unit's, destroyed from
 * a checkout of the base commit) needs a backend outside the sandbox, as a real one is. terraform
 * asks with GET (404: no state yet), POST (the new state) and DELETE; no locking address is given,
 * so it takes no lock.
 */
public final class HttpStateBackend {
  private final Path directory;
  private final HttpServer server;

  private HttpStateBackend(Path directory, HttpServer server) {
    this.directory = directory;
    this.server = server;
  }

  /** A backend keeping each state in {@code directory}, running until the JVM ends. */
  public static HttpStateBackend in(Path directory) {
    try {
      Files.createDirectories(directory);
      HttpServer server =
          HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
      HttpStateBackend backend = new HttpStateBackend(directory, server);
      server.createContext("/", backend::answer);
      server.setExecutor(Executors.newCachedThreadPool(DaemonThreads.named("state-backend")));
      server.start();
      return backend;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The file the state named {@code name} is kept in. */
  public Path stateFile(String name) {
    return directory.resolve(name.replace('/', '-') + ".tfstate");
  }

  /** The {@code terraform { backend }} block of a unit whose state is named {@code name}. */
  public String backend(String name) {
    return "terraform {\n  backend \"http\" {\n    address = \"" + address(name) + "\"\n  }\n}\n\n";
  }

  /** The {@code config} of a {@code terraform_remote_state} that reads the state {@code name}. */
  public String remoteStateConfig(String name) {
    return "  backend = \"http\"\n  config = {\n    address = \"" + address(name) + "\"\n  }\n";
  }

  private String address(String name) {
    return "http://127.0.0.1:"
        + server.getAddress().getPort()
        + "/"
        + stateFile(name).getFileName();
  }

  private void answer(HttpExchange exchange) throws IOException {
    try (exchange) {
      Path file = directory.resolve(Path.of(exchange.getRequestURI().getPath()).getFileName());
      switch (exchange.getRequestMethod()) {
        case "GET" -> {
          if (!Files.exists(file)) {
            exchange.sendResponseHeaders(404, -1);
            return;
          }
          byte[] state = Files.readAllBytes(file);
          exchange.sendResponseHeaders(200, state.length);
          exchange.getResponseBody().write(state);
        }
        case "POST" -> {
          Files.write(file, exchange.getRequestBody().readAllBytes());
          exchange.sendResponseHeaders(200, -1);
        }
        case "DELETE" -> {
          Files.deleteIfExists(file);
          exchange.sendResponseHeaders(200, -1);
        }
        default -> exchange.sendResponseHeaders(405, -1);
      }
    }
  }
}
