package io.livegate.cli.local;

import io.livegate.core.LivegateException;
import io.livegate.core.admin.Console;
import io.livegate.core.deploy.Execution;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.Function;

/**
 * The console ({@link Console}) over HTTP: its pages with the console's headers, read-only, and the
 * plans' text a state directory keeps.
 */
public final class ConsoleHttp {
  private ConsoleHttp() {}

  /** Answers a request with the page {@code console} renders for it; only GET is served. */
  public static WebServer.Reply answer(Console console, WebServer.Request request) {
    if (!request.method().equals("GET")) {
      return onlyReads();
    }
    return reply(console.render(request.path(), fragment(request)));
  }

  /** Whether the request asks for the main part only (the live update's fetch). */
  private static boolean fragment(WebServer.Request request) {
    return "fragment=1".equals(request.rawQuery());
  }

  /** What renders a console page: its path, and whether only its main part is asked for. */
  public interface Pages {
    Console.Response render(String path, boolean fragment);
  }

  /**
   * A server on 127.0.0.1:{@code port} for {@code livegate ui}; a port it cannot take fails the
   * command, naming what to run instead.
   */
  public static WebServer listen(int port) {
    try {
      return new WebServer(
          new InetSocketAddress(InetAddress.getLoopbackAddress(), port), "livegate-ui");
    } catch (IOException e) {
      throw new LivegateException(
          "cannot listen on 127.0.0.1:"
              + port
              + ": "
              + e.getMessage()
              + "; run it again with --port 0 to take a free port, or --port N for another one",
          e);
    }
  }

  /**
   * Serves what {@code pages} renders at {@code /} of {@code server}, GET only; a page it cannot
   * render is answered {@code failureStatus} with {@code cannot} and why.
   */
  public static void serve(WebServer server, Pages pages, int failureStatus, String cannot) {
    server.route(
        "/",
        request -> {
          if (!request.method().equals("GET")) {
            return onlyReads();
          }
          try {
            return reply(pages.render(request.path(), fragment(request)));
          } catch (RuntimeException e) {
            return reply(
                new Console.Response(
                    failureStatus,
                    "text/plain; charset=utf-8",
                    cannot + ": " + e.getMessage() + "\n",
                    false));
          }
        });
  }

  /** The answer to a request that is not a GET. */
  private static WebServer.Reply onlyReads() {
    return reply(
            new Console.Response(
                405, "text/plain; charset=utf-8", "the console only reads\n", false))
        .with("Allow", "GET");
  }

  /** {@code response} with the console's headers. */
  public static WebServer.Reply reply(Console.Response response) {
    return WebServer.Reply.of(response.status(), response.contentType(), response.body())
        .with("Cache-Control", "no-store")
        .with("X-Livegate-Live", Boolean.toString(response.live()))
        .with(
            "Content-Security-Policy",
            "default-src 'none'; style-src 'unsafe-inline'; script-src 'self'; connect-src 'self';"
                + " img-src 'self'; frame-ancestors 'none'")
        .with("Referrer-Policy", "no-referrer");
  }

  /** The text of each execution's saved plan in the state directory's {@code plans}. */
  public static Function<Execution, String> planTexts(Path plans) {
    return execution -> {
      Path text = plans.resolve(execution.name() + ".txt");
      try {
        return Files.exists(text) ? Files.readString(text) : "(not planned yet)";
      } catch (IOException e) {
        return "(the saved plan cannot be read: " + e.getMessage() + ")";
      }
    };
  }
}
