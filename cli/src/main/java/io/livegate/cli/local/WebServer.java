package io.livegate.cli.local;

import java.io.IOException;
import java.net.BindException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.eclipse.jetty.http.HttpField;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.thread.QueuedThreadPool;
import org.eclipse.jetty.util.thread.Scheduler;

/**
 * The local runtime's HTTP server (Jetty 12, on its own: WireMock's Jetty 11 is shaded away in
 * tests), under the vote pages, the console and GitHub's webhook.
 *
 * <p>It is built so that idle or slow clients, and big bodies, cannot starve GitHub's deliveries
 * (GitHub gives up after 10 s) or the votes:
 *
 * <ul>
 *   <li>A connection costs a thread only while a request is being answered: headers and bodies are
 *       read as they arrive, without a thread waiting for them, so thousands of idle or half-sent
 *       connections take memory for their buffers and nothing else. A connection silent for {@value
 *       #IDLE_SECONDS} s is closed, and a body must arrive within {@value #BODY_SECONDS} s of its
 *       headers (408 otherwise). Up to {@value #ACCEPT_QUEUE} connections wait for the acceptor
 *       (the JDK's 50 made a burst of connections wait on the client's SYN retries: 2,000 took 31 s
 *       to open on a loaded machine, 2.3 s with this queue).
 *   <li>Answers run in a bounded pool of {@value #THREADS} threads.
 *   <li>A route reads at most its {@link Route#maxBody()} bytes: a longer {@code Content-Length} is
 *       refused before the body is read. Every body in memory counts against one {@link BodyBudget}
 *       of {@value #BUDGET_MB} MB; a body that finds no room is refused with 503 and a {@code
 *       Retry-After}, unread. Bodies of at most {@value #SMALL_BODY_KB} kB keep a reserve of
 *       {@value #SMALL_RESERVE_MB} MB that bigger bodies cannot take.
 *   <li>A route may answer from the headers alone ({@link Route#early}), before any memory is spent
 *       on the body: the webhook refuses a request without a well-formed signature that way.
 * </ul>
 */
public final class WebServer implements AutoCloseable {
  static final int THREADS = 32;
  static final int IDLE_SECONDS = 30;
  static final int ACCEPT_QUEUE = 1024;
  static final int BODY_SECONDS = 10;
  static final int BUDGET_MB = 64;
  static final int SMALL_BODY_KB = 1024;
  static final int SMALL_RESERVE_MB = 8;

  /** One request: its headers (the first value of each) and, once read, its body. */
  public record Request(
      String method, String path, String rawQuery, Map<String, String> headers, byte[] body) {
    /** A header's first value; the name is matched without regard to case, as HTTP says. */
    public Optional<String> header(String name) {
      return Optional.ofNullable(headers.get(name.toLowerCase(Locale.ROOT)));
    }
  }

  /** An answer: its status, headers and body. */
  public record Reply(int status, Map<String, String> headers, byte[] body) {
    /** A reply of {@code contentType} whose body is {@code text} in UTF-8. */
    public static Reply of(int status, String contentType, String text) {
      Map<String, String> headers = new LinkedHashMap<>();
      headers.put("Content-Type", contentType);
      return new Reply(status, headers, text.getBytes(StandardCharsets.UTF_8));
    }

    /** This reply with one more header. */
    public Reply with(String name, String value) {
      Map<String, String> more = new LinkedHashMap<>(headers);
      more.put(name, value);
      return new Reply(status, more, body);
    }
  }

  /** What answers the requests under a path. */
  public interface Route {
    /** The most body bytes this route reads; a request with more is refused ({@link #tooLarge}). */
    default int maxBody() {
      return 0;
    }

    /** The answer to a body over {@link #maxBody()}. */
    default Reply tooLarge() {
      return Reply.of(413, "text/plain; charset=utf-8", "refused: the body is too large\n");
    }

    /**
     * An answer from the request's headers alone (its body is empty here), so that no memory is
     * spent on a body that will be refused anyway; empty to read the body and {@link #answer}.
     */
    default Optional<Reply> early(Request head) {
      return Optional.empty();
    }

    Reply answer(Request request);
  }

  private final Server server;
  private final ServerConnector connector;
  private final BodyBudget budget =
      new BodyBudget(
          (long) BUDGET_MB << 20, (long) SMALL_BODY_KB << 10, (long) SMALL_RESERVE_MB << 20);
  private final Map<String, Route> routes = new ConcurrentHashMap<>();

  /**
   * Listens on {@code address} (port 0 for a free one); its threads are named {@code threadName}.
   *
   * @throws BindException when the address is taken
   */
  public WebServer(InetSocketAddress address, String threadName) throws IOException {
    QueuedThreadPool threads = new QueuedThreadPool(THREADS, 2);
    threads.setName(threadName);
    // like the JDK server before it: an open connection does not keep the JVM alive
    threads.setDaemon(true);
    server = new Server(threads);
    HttpConfiguration http = new HttpConfiguration();
    http.setSendServerVersion(false);
    http.setSendXPoweredBy(false);
    connector = new ServerConnector(server, 1, 1, new HttpConnectionFactory(http));
    connector.setHost(address.getAddress().getHostAddress());
    connector.setPort(address.getPort());
    connector.setIdleTimeout(TimeUnit.SECONDS.toMillis(IDLE_SECONDS));
    connector.setAcceptQueueSize(ACCEPT_QUEUE);
    server.addConnector(connector);
    server.setHandler(new Dispatch());
    try {
      server.start();
    } catch (Exception e) {
      stopQuietly();
      for (Throwable cause = e; cause != null; cause = cause.getCause()) {
        if (cause instanceof BindException bind) {
          throw bind;
        }
      }
      throw e instanceof IOException io ? io : new IOException(e.getMessage(), e);
    }
  }

  /**
   * Serves the paths that start with {@code prefix} (the longest prefix that matches wins, as with
   * the JDK server).
   */
  public void route(String prefix, Route route) {
    routes.put(prefix, route);
  }

  /** The port it listens on. */
  public int port() {
    return connector.getLocalPort();
  }

  /** The bytes of request bodies in memory now, for the load test and the benchmark. */
  long bodyBytesHeld() {
    return budget.used();
  }

  @Override
  public void close() {
    stopQuietly();
  }

  private void stopQuietly() {
    try {
      server.stop();
    } catch (Exception e) {
      // stopping is best effort: the connections die with the server's threads
    }
  }

  private Optional<Route> route(String path) {
    String best = null;
    for (String prefix : routes.keySet()) {
      if (path.startsWith(prefix) && (best == null || prefix.length() > best.length())) {
        best = prefix;
      }
    }
    return Optional.ofNullable(best).map(routes::get);
  }

  private static final Reply NOT_FOUND =
      Reply.of(404, "text/plain; charset=utf-8", "there is nothing here\n");
  private static final Reply BUSY =
      Reply.of(
              503,
              "text/plain; charset=utf-8",
              "busy: too many request bodies are being read; try again\n")
          .with("Retry-After", "1");
  private static final Reply SLOW =
      Reply.of(
          408,
          "text/plain; charset=utf-8",
          "refused: the body did not arrive within " + BODY_SECONDS + " s\n");

  private final class Dispatch extends Handler.Abstract {
    @Override
    public boolean handle(
        org.eclipse.jetty.server.Request request, Response response, Callback callback) {
      Map<String, String> headers = new LinkedHashMap<>();
      for (HttpField field : request.getHeaders()) {
        headers.putIfAbsent(field.getLowerCaseName(), field.getValue());
      }
      String path = request.getHttpURI().getDecodedPath();
      Request head =
          new Request(
              request.getMethod(),
              path == null ? "/" : path,
              request.getHttpURI().getQuery(),
              headers,
              new byte[0]);
      Route route = route(head.path()).orElse(null);
      if (route == null) {
        send(response, callback, NOT_FOUND);
        return true;
      }
      Optional<Reply> early = answer(() -> route.early(head));
      if (early.isPresent()) {
        send(response, callback, early.get());
        return true;
      }
      long length = request.getLength();
      if (route.maxBody() == 0 || length == 0) {
        // the route reads no body: what was sent is left to Jetty, which drops it
        send(response, callback, answer(() -> Optional.of(route.answer(head))).orElseThrow());
        return true;
      }
      if (length > route.maxBody()) {
        send(response, callback, route.tooLarge());
        return true;
      }
      long share = length < 0 ? route.maxBody() : length;
      if (!budget.take(share)) {
        send(response, callback, BUSY);
        return true;
      }
      new BodyReader(request, response, callback, route, head, share, length >= 0).run();
      return true;
    }
  }

  /**
   * Reads one body into memory as it arrives, within the share of the budget taken for it, and
   * answers once it is whole. Jetty calls {@link #run} again when more has arrived.
   */
  private final class BodyReader implements Runnable {
    private final org.eclipse.jetty.server.Request request;
    private final Response response;
    private final Callback callback;
    private final Route route;
    private final Request head;
    private final long share;
    private final Scheduler.Task deadline;
    private byte[] body;
    private int filled;

    BodyReader(
        org.eclipse.jetty.server.Request request,
        Response response,
        Callback callback,
        Route route,
        Request head,
        long share,
        boolean lengthKnown) {
      this.request = request;
      this.response = response;
      this.callback = callback;
      this.route = route;
      this.head = head;
      this.share = share;
      // a known length is read into one array of that size: no copy ever holds the body twice
      this.body = new byte[(int) (lengthKnown ? share : Math.min(share, 64 * 1024))];
      this.deadline =
          server
              .getScheduler()
              .schedule(
                  () ->
                      request.fail(
                          new TimeoutException(
                              "the body did not arrive within " + BODY_SECONDS + " s")),
                  BODY_SECONDS,
                  TimeUnit.SECONDS);
    }

    @Override
    public void run() {
      while (true) {
        Content.Chunk chunk = request.read();
        if (chunk == null) {
          request.demand(this);
          return;
        }
        if (Content.Chunk.isFailure(chunk)) {
          Throwable failure = chunk.getFailure();
          finish();
          if (failure instanceof TimeoutException) {
            send(response, callback, SLOW);
          } else {
            callback.failed(failure);
          }
          return;
        }
        ByteBuffer bytes = chunk.getByteBuffer();
        int size = bytes.remaining();
        if (filled + (long) size > share) {
          chunk.release();
          finish();
          send(response, callback, route.tooLarge());
          return;
        }
        if (filled + size > body.length) {
          body =
              Arrays.copyOf(body, (int) Math.min(share, Math.max(2L * body.length, filled + size)));
        }
        bytes.get(body, filled, size);
        filled += size;
        boolean last = chunk.isLast();
        chunk.release();
        if (last) {
          deadline.cancel();
          Request whole =
              new Request(
                  head.method(),
                  head.path(),
                  head.rawQuery(),
                  head.headers(),
                  filled == body.length ? body : Arrays.copyOf(body, filled));
          body = null;
          Reply reply;
          try {
            reply = answer(() -> Optional.of(route.answer(whole))).orElseThrow();
          } finally {
            budget.give(share);
          }
          send(response, callback, reply);
          return;
        }
      }
    }

    private void finish() {
      deadline.cancel();
      budget.give(share);
    }
  }

  /** A route's answer; a failure it did not expect is a 500 that says what went wrong. */
  private static Optional<Reply> answer(java.util.function.Supplier<Optional<Reply>> route) {
    try {
      return route.get();
    } catch (RuntimeException e) {
      return Optional.of(
          Reply.of(
              500, "text/plain; charset=utf-8", "something went wrong: " + e.getMessage() + "\n"));
    }
  }

  private static void send(Response response, Callback callback, Reply reply) {
    response.setStatus(reply.status());
    reply.headers().forEach((name, value) -> response.getHeaders().add(name, value));
    response.getHeaders().put(HttpHeader.CONTENT_LENGTH, reply.body().length);
    response.write(true, ByteBuffer.wrap(reply.body()), callback);
  }
}
