package io.livegate.cli.local;

import io.livegate.core.LivegateException;
import io.livegate.core.admin.Console;
import java.nio.file.Path;

/**
 * {@code livegate ui}: the console of a state directory on its own, read-only, while or after a run
 * ({@link StateReader}). When the run it was reading through ends, its metadb goes with it: the
 * next request opens the state directory again, now on a metadb of its own. When no run holds the
 * state directory, it holds it only while it answers a page, and then lets go (its metadb stopped),
 * so that a {@code deploy} started beside it can take the directory; a run waits a moment for a
 * page being answered ({@link StateDirectoryLock#takeFromReaders}).
 */
public final class UiServer implements AutoCloseable {
  private final Path stateDirectory;
  private final WebServer server;

  /** The open reader: one attached to a run's metadb, or null between pages. */
  private StateReader reader;

  private UiServer(Path stateDirectory, WebServer server, StateReader reader) {
    this.stateDirectory = stateDirectory;
    this.server = server;
    this.reader = reader;
  }

  /** Opens {@code stateDirectory} and serves its console on 127.0.0.1:{@code port}. */
  public static UiServer start(Path stateDirectory, int port) {
    // Opened once now, so that a directory it cannot read fails the command rather than a page.
    StateReader reader = StateReader.open(stateDirectory);
    WebServer server;
    try {
      server = ConsoleHttp.listen(port);
    } catch (LivegateException e) {
      reader.close();
      throw e;
    }
    UiServer ui = new UiServer(stateDirectory, server, reader);
    ui.letGoUnlessAttached();
    ConsoleHttp.serve(server, ui::render, 500, "cannot read the state directory");
    return ui;
  }

  public String baseUrl() {
    return "http://127.0.0.1:" + server.port();
  }

  /** Whether it reads through the metadb of a run that holds the state directory. */
  public synchronized boolean attached() {
    return reader != null && reader.holder().isPresent();
  }

  private synchronized Console.Response render(String path, boolean fragment) {
    try {
      if (reader == null) {
        reader = StateReader.open(stateDirectory);
      }
      try {
        return console().render(path, fragment);
      } catch (RuntimeException gone) {
        // The run whose metadb this read through has ended: open the directory again.
        return reopen().render(path, fragment);
      }
    } finally {
      letGoUnlessAttached();
    }
  }

  /** Closes a reader that holds the state directory itself: a run may take it now. */
  private synchronized void letGoUnlessAttached() {
    if (reader != null && reader.holder().isEmpty()) {
      StateReader owned = reader;
      reader = null;
      owned.close();
    }
  }

  private synchronized Console console() {
    return new Console(
        new Console.Source(
            reader.deployments(),
            reader.executions(),
            reader.votes(),
            new FileExecutionLogs(reader.root().resolve("logs")),
            ConsoleHttp.planTexts(reader.root().resolve("plans")),
            Console.STATE_DIRECTORY));
  }

  private synchronized Console reopen() {
    try {
      reader.close();
    } catch (RuntimeException e) {
      // the server it read through is gone already
    }
    reader = null;
    reader = StateReader.open(stateDirectory);
    return console();
  }

  @Override
  public synchronized void close() {
    server.close();
    if (reader != null) {
      reader.close();
    }
  }
}
