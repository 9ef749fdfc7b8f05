package io.livegate.cli.local;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.livegate.core.Html;
import io.livegate.core.LivegateException;
import io.livegate.core.deploy.DeploymentStore;
import io.livegate.core.deploy.ExecutionStore;
import io.livegate.core.unit.PlanStore;
import io.livegate.core.vote.CastVote;
import io.livegate.core.vote.DeploymentView;
import io.livegate.core.vote.Vote;
import io.livegate.core.vote.VoteDesk;
import io.livegate.core.vote.VoteLinks;
import io.livegate.core.vote.VoteStore;
import io.livegate.core.webhook.WebhookReceiver;
import io.livegate.core.webhook.WebhookRequest;
import io.livegate.core.webhook.WebhookResponse;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.function.LongSupplier;

/**
 * The loopback web server of the local runtime. {@code GET /vote?t=…} shows a confirm page and
 * changes nothing, because mail scanners prefetch links; the page's {@code POST /vote} records the
 * vote. {@code GET /status} draws the current deployment. It binds to 127.0.0.1 unless told
 * otherwise ({@code serve --listen}).
 *
 * <p>Slow or idle clients must not starve GitHub's deliveries or the votes: the JDK server reads
 * each request in a thread of its pool from the moment the connection is accepted, so the pool has
 * {@value #THREADS} threads, and a request that takes longer than {@value #MAX_REQUEST_SECONDS} s
 * to arrive, or a response longer than {@value #MAX_RESPONSE_SECONDS} s to leave, has its
 * connection closed. Bodies are read up to a bound ({@value #MAX_BODY} bytes, a webhook's {@link
 * WebhookReceiver#MAX_BODY_BYTES}); the JDK bounds the number of headers (200).
 */
public final class VoteServer implements AutoCloseable {
  private static final int MAX_BODY = 16 * 1024;
  private static final int THREADS = 256;
  private static final int MAX_REQUEST_SECONDS = 10;
  private static final int MAX_RESPONSE_SECONDS = 60;

  static {
    // The JDK server reads its limits once, from system properties, when it is first used.
    System.getProperties()
        .putIfAbsent("sun.net.httpserver.maxReqTime", Integer.toString(MAX_REQUEST_SECONDS));
    System.getProperties()
        .putIfAbsent("sun.net.httpserver.maxRspTime", Integer.toString(MAX_RESPONSE_SECONDS));
  }

  private final HttpServer server;
  private final VoteLinks links;
  private final VoteDesk desk;
  private final ExecutionStore executions;
  private final DeploymentStore deployments;
  private final VoteStore votes;
  private final LongSupplier currentDeployment;
  private final String baseUrl;

  /**
   * Where the server listens and is reached.
   *
   * @param publicUrl the address voters and GitHub reach this server at, for the links and the
   *     webhook URL it prints (e.g. behind a proxy); empty for {@code http://ADDRESS:PORT}
   */
  public record Listen(InetAddress address, int port, Optional<String> publicUrl) {}

  /**
   * What the pages read: the deployments, their executions and votes, and the saved plans (whose
   * text the confirm page shows).
   */
  public record Records(
      DeploymentStore deployments, ExecutionStore executions, VoteStore votes, PlanStore plans) {}

  private volatile Console console;

  /**
   * @param currentDeployment the deployment the status page draws
   */
  public VoteServer(
      Listen listen,
      VoteLinks links,
      CastVote castVote,
      Records records,
      Clock clock,
      LongSupplier currentDeployment) {
    InetAddress address = listen.address();
    DeploymentStore deployments = records.deployments();
    ExecutionStore executions = records.executions();
    this.links = links;
    this.desk =
        new VoteDesk(
            links,
            castVote,
            executions,
            deployments,
            execution ->
                execution.planArtifact() == null
                    ? "(no saved plan)"
                    : records.plans().text(execution.planArtifact()),
            clock);
    this.deployments = deployments;
    this.executions = executions;
    this.votes = records.votes();
    this.currentDeployment = currentDeployment;
    try {
      server = HttpServer.create(new InetSocketAddress(address, listen.port()), 0);
    } catch (java.net.BindException e) {
      throw new LivegateException(
          "cannot listen on "
              + address.getHostAddress()
              + ":"
              + listen.port()
              + ": "
              + e.getMessage()
              + "; run it again with --port 0 to take a free port, or --port N for another one",
          e);
    } catch (IOException e) {
      throw new LivegateException(
          "cannot listen on "
              + address.getHostAddress()
              + ":"
              + listen.port()
              + ": "
              + e.getMessage(),
          e);
    }
    server.setExecutor(
        Executors.newFixedThreadPool(
            THREADS,
            runnable -> {
              Thread thread = new Thread(runnable, "livegate-http");
              thread.setDaemon(true);
              return thread;
            }));
    server.createContext(VoteDesk.PATH, this::vote);
    server.createContext("/status", this::status);
    server.createContext(
        "/",
        exchange -> {
          Console shown = console;
          if (shown != null) {
            shown.handle(exchange);
          } else if (exchange.getRequestURI().getPath().equals("/")) {
            exchange.getResponseHeaders().add("Location", "/status");
            exchange.sendResponseHeaders(302, -1);
            exchange.close();
          } else {
            send(exchange, VoteDesk.page(404, "Not found", "<p>There is nothing here.</p>"));
          }
        });
    server.start();
    this.baseUrl =
        listen
            .publicUrl()
            .map(url -> url.replaceAll("/+$", ""))
            .orElseGet(() -> "http://" + host(address) + ":" + server.getAddress().getPort());
  }

  private static String host(InetAddress address) {
    if (address.isAnyLocalAddress() || address.isLoopbackAddress()) {
      return "127.0.0.1";
    }
    String host = address.getHostAddress();
    return host.contains(":") ? "[" + host + "]" : host;
  }

  /** Serves {@code console} at {@code /} and the paths under it that nothing else serves. */
  public void console(Console console) {
    this.console = console;
  }

  /** Where links point: {@code --public-url}, or this server's own address. */
  public String baseUrl() {
    return baseUrl;
  }

  /**
   * Serves GitHub's deliveries on {@code POST /webhook} through {@code receiver}: the raw body (at
   * most {@link WebhookReceiver#MAX_BODY_BYTES} bytes are read) and the headers, answered with the
   * receiver's status and line.
   */
  public void webhook(WebhookReceiver receiver) {
    server.createContext(
        "/webhook",
        exchange -> {
          try (exchange) {
            WebhookResponse response;
            if (!exchange.getRequestMethod().equals("POST")) {
              response = new WebhookResponse(405, "refused: the webhook takes POST");
            } else {
              Map<String, String> headers = new HashMap<>();
              exchange
                  .getRequestHeaders()
                  .forEach((name, values) -> headers.put(name, values.get(0)));
              byte[] body =
                  exchange.getRequestBody().readNBytes(WebhookReceiver.MAX_BODY_BYTES + 1);
              try {
                response = receiver.receive(new WebhookRequest(headers, body));
              } catch (RuntimeException e) {
                response = new WebhookResponse(503, "not handled: " + e.getMessage());
              }
            }
            byte[] text = (response.body() + "\n").getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "text/plain; charset=utf-8");
            exchange.sendResponseHeaders(response.status(), text.length);
            exchange.getResponseBody().write(text);
          }
        });
  }

  /** The link a voter opens to vote {@code choice}. */
  public String link(long executionId, String voter, Vote.Choice choice, Instant expires) {
    return links.link(baseUrl(), new VoteLinks.Ballot(executionId, voter, choice, expires));
  }

  @Override
  public void close() {
    server.stop(0);
  }

  private void vote(HttpExchange exchange) throws IOException {
    try (exchange) {
      String method = exchange.getRequestMethod();
      if (method.equals("GET")) {
        send(
            exchange,
            desk.confirm(
                VoteDesk.form(exchange.getRequestURI().getRawQuery())
                    .get(VoteDesk.TOKEN_PARAMETER)));
      } else if (method.equals("POST")) {
        byte[] body = readBody(exchange.getRequestBody());
        if (body == null) {
          send(exchange, VoteDesk.page(413, "Too large", "<p>That request is too large.</p>"));
          return;
        }
        send(
            exchange,
            desk.record(
                VoteDesk.form(new String(body, StandardCharsets.UTF_8))
                    .get(VoteDesk.TOKEN_PARAMETER)));
      } else {
        exchange.getResponseHeaders().add("Allow", "GET, POST");
        send(exchange, VoteDesk.page(405, "Not allowed", "<p>Use the link from your email.</p>"));
      }
    } catch (RuntimeException e) {
      sendError(exchange, e);
    }
  }

  private void status(HttpExchange exchange) throws IOException {
    try (exchange) {
      long id = currentDeployment.getAsLong();
      if (id <= 0 || deployments.find(id).isEmpty()) {
        send(exchange, VoteDesk.page(200, "No deployment", "<p>No deployment has run yet.</p>"));
        return;
      }
      DeploymentView view = DeploymentView.of(id, deployments, executions, votes);
      Map<Long, String> states = new HashMap<>();
      view.executions()
          .forEach(
              execution ->
                  executions
                      .flowState(execution.id())
                      .ifPresent(s -> states.put(execution.id(), s)));
      send(exchange, 200, StatusPage.render(view, states));
    } catch (RuntimeException e) {
      sendError(exchange, e);
    }
  }

  /** An unexpected failure: a page that says what went wrong, never a stack trace. */
  private static void sendError(HttpExchange exchange, RuntimeException e) throws IOException {
    send(
        exchange,
        VoteDesk.page(
            500,
            "Something went wrong",
            "<p>" + Html.escape(String.valueOf(e.getMessage())) + "</p>"));
  }

  private static void send(HttpExchange exchange, VoteDesk.Page page) throws IOException {
    send(exchange, page.status(), page.html());
  }

  private static void send(HttpExchange exchange, int status, String html) throws IOException {
    byte[] bytes = html.getBytes(StandardCharsets.UTF_8);
    exchange.getResponseHeaders().add("Content-Type", "text/html; charset=utf-8");
    exchange.getResponseHeaders().add("Cache-Control", "no-store");
    exchange
        .getResponseHeaders()
        .add(
            "Content-Security-Policy",
            "default-src 'none'; style-src 'unsafe-inline'; form-action 'self';"
                + " frame-ancestors 'none'");
    // a vote link's token must not leave in a Referer header
    exchange.getResponseHeaders().add("Referrer-Policy", "no-referrer");
    exchange.sendResponseHeaders(status, bytes.length);
    try (OutputStream out = exchange.getResponseBody()) {
      out.write(bytes);
    }
  }

  private static byte[] readBody(InputStream in) throws IOException {
    byte[] body = in.readNBytes(MAX_BODY + 1);
    return body.length > MAX_BODY ? null : body;
  }
}
