package io.livegate.cli.local;

import io.livegate.core.LivegateException;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Path;

/**
 * {@code livegate ui}: the console of a state directory on its own, read-only, while or after a run
 * ({@link StateReader}). When the run it was reading through ends, its metadb goes with it: the
 * next request opens the state directory again, now on a metadb of its own.
 */
public final class UiServer implements AutoCloseable {
  private final Path stateDirectory;
  private final WebServer server;
  private StateReader reader;

  private UiServer(Path stateDirectory, WebServer server, StateReader reader) {
    this.stateDirectory = stateDirectory;
    this.server = server;
    this.reader = reader;
  }

  /** Opens {@code stateDirectory} and serves its console on 127.0.0.1:{@code port}. */
  public static UiServer start(Path stateDirectory, int port) {
    StateReader reader = StateReader.open(stateDirectory);
    WebServer server;
    try {
      server =
          new WebServer(
              new InetSocketAddress(InetAddress.getLoopbackAddress(), port), "livegate-ui");
    } catch (IOException e) {
      reader.close();
      throw new LivegateException(
          "cannot listen on 127.0.0.1:"
              + port
              + ": "
              + e.getMessage()
              + "; run it again with --port 0 to take a free port, or --port N for another one",
          e);
    }
    UiServer ui = new UiServer(stateDirectory, server, reader);
    server.route(
        "/",
        request -> {
          if (!request.method().equals("GET")) {
            return Console.reply(
                    new Console.Response(
                        405, "text/plain; charset=utf-8", "the console only reads\n", false))
                .with("Allow", "GET");
          }
          boolean fragment = "fragment=1".equals(request.rawQuery());
          try {
            Console.Response response;
            try {
              response = ui.console().render(request.path(), fragment);
            } catch (RuntimeException gone) {
              // The run whose metadb this read through has ended: open the directory again.
              response = ui.reopen().render(request.path(), fragment);
            }
            return Console.reply(response);
          } catch (RuntimeException e) {
            return Console.reply(
                new Console.Response(
                    500,
                    "text/plain; charset=utf-8",
                    "cannot read the state directory: " + e.getMessage() + "\n",
                    false));
          }
        });
    return ui;
  }

  public String baseUrl() {
    return "http://127.0.0.1:" + server.port();
  }

  /** Whether it reads through the metadb of a run that holds the state directory. */
  public synchronized boolean attached() {
    return reader.holder().isPresent();
  }

  private synchronized Console console() {
    return new Console(
        new Console.Source(
            reader.deployments(),
            reader.executions(),
            reader.votes(),
            new FileExecutionLogs(reader.root().resolve("logs")),
            reader.root().resolve("plans")));
  }

  private synchronized Console reopen() {
    try {
      reader.close();
    } catch (RuntimeException e) {
      // the server it read through is gone already
    }
    reader = StateReader.open(stateDirectory);
    return console();
  }

  @Override
  public synchronized void close() {
    server.close();
    reader.close();
  }
}
