package io.livegate.cli.local;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.livegate.core.LivegateException;
import io.livegate.core.deploy.CastVote;
import io.livegate.core.deploy.DeploymentStore;
import io.livegate.core.deploy.DeploymentView;
import io.livegate.core.deploy.Execution;
import io.livegate.core.deploy.ExecutionStore;
import io.livegate.core.deploy.PlanSummary;
import io.livegate.core.deploy.Vote;
import io.livegate.core.deploy.VoteResult;
import io.livegate.core.deploy.VoteStore;
import io.livegate.core.flow.VoteLinks;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
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
 * vote. {@code GET /status} draws the current deployment. It binds to 127.0.0.1 only.
 */
public final class VoteServer implements AutoCloseable {
  private static final int MAX_BODY = 16 * 1024;

  private final HttpServer server;
  private final VoteLinks links;
  private final CastVote castVote;
  private final ExecutionStore executions;
  private final DeploymentStore deployments;
  private final VoteStore votes;
  private final Path plans;
  private final Clock clock;
  private final LongSupplier currentDeployment;

  public VoteServer(
      int port,
      VoteLinks links,
      CastVote castVote,
      DeploymentStore deployments,
      ExecutionStore executions,
      VoteStore votes,
      Path plans,
      Clock clock,
      LongSupplier currentDeployment) {
    this.links = links;
    this.castVote = castVote;
    this.deployments = deployments;
    this.executions = executions;
    this.votes = votes;
    this.plans = plans;
    this.clock = clock;
    this.currentDeployment = currentDeployment;
    try {
      server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 0);
    } catch (IOException e) {
      throw new LivegateException("cannot listen on 127.0.0.1:" + port + ": " + e.getMessage(), e);
    }
    server.setExecutor(
        Executors.newFixedThreadPool(
            4,
            runnable -> {
              Thread thread = new Thread(runnable, "livegate-http");
              thread.setDaemon(true);
              return thread;
            }));
    server.createContext("/vote", this::vote);
    server.createContext("/status", this::status);
    server.createContext(
        "/",
        exchange -> {
          if (exchange.getRequestURI().getPath().equals("/")) {
            exchange.getResponseHeaders().add("Location", "/status");
            exchange.sendResponseHeaders(302, -1);
            exchange.close();
          } else {
            send(exchange, 404, page("Not found", "<p>There is nothing here.</p>"));
          }
        });
    server.start();
  }

  public String baseUrl() {
    return "http://127.0.0.1:" + server.getAddress().getPort();
  }

  /** The link a voter opens to vote {@code choice}. */
  public String link(long executionId, String voter, Vote.Choice choice, Instant expires) {
    return baseUrl()
        + "/vote?t="
        + URLEncoder.encode(
            links.token(new VoteLinks.Ballot(executionId, voter, choice, expires)),
            StandardCharsets.UTF_8);
  }

  @Override
  public void close() {
    server.stop(0);
  }

  private void vote(HttpExchange exchange) throws IOException {
    try (exchange) {
      String method = exchange.getRequestMethod();
      if (method.equals("GET")) {
        confirmPage(exchange, query(exchange.getRequestURI().getRawQuery()).get("t"));
      } else if (method.equals("POST")) {
        byte[] body = readBody(exchange.getRequestBody());
        if (body == null) {
          send(exchange, 413, page("Too large", "<p>That request is too large.</p>"));
          return;
        }
        record(exchange, query(new String(body, StandardCharsets.UTF_8)).get("t"));
      } else {
        exchange.getResponseHeaders().add("Allow", "GET, POST");
        send(exchange, 405, page("Not allowed", "<p>Use the link from your email.</p>"));
      }
    } catch (RuntimeException e) {
      sendError(exchange, e);
    }
  }

  private void confirmPage(HttpExchange exchange, String token) throws IOException {
    VoteLinks.Check check = links.check(token, clock.instant());
    Optional<VoteLinks.Ballot> ballot = refusal(exchange, check);
    if (ballot.isEmpty()) {
      return;
    }
    Optional<Execution> found = executions.find(ballot.get().executionId());
    if (found.isEmpty()) {
      send(
          exchange,
          404,
          page("Unknown execution", "<p>This link names an execution that does not exist.</p>"));
      return;
    }
    Execution execution = found.get();
    if (!execution.spec().voters().contains(ballot.get().voter())) {
      // Refused here as well as when casting, so a non-voter never sees a button to press.
      send(
          exchange,
          403,
          page(
              "Not a voter",
              "<p id=\"result\">"
                  + Html.escape(ballot.get().voter())
                  + " is not a voter for this unit. No vote was recorded.</p>"));
      return;
    }
    if (execution.decision() != null) {
      send(
          exchange,
          409,
          page(
              "Already decided",
              "<p id=\"result\">This vote was already decided: <b>"
                  + Html.escape(execution.decision())
                  + "</b>.</p>"));
      return;
    }
    String choice = ballot.get().choice() == Vote.Choice.APPROVE ? "Approve" : "Reject";
    PlanSummary summary = execution.planSummary();
    String counts =
        summary == null
            ? "not planned yet"
            : summary.add()
                + " to add, "
                + summary.change()
                + " to change, "
                + summary.destroy()
                + " to destroy"
                + (summary.newProviders().isEmpty()
                    ? ""
                    : "; new providers: " + String.join(", ", summary.newProviders()));
    send(
        exchange,
        200,
        page(
            choice + " " + execution.unit() + "?",
            "<table><tr><td>Unit</td><td><code id=\"unit\">"
                + Html.escape(execution.unit())
                + "</code></td></tr>"
                + "<tr><td>Account</td><td>"
                + Html.escape(execution.account())
                + "</td></tr>"
                + "<tr><td>Voter</td><td>"
                + Html.escape(ballot.get().voter())
                + "</td></tr>"
                + "<tr><td>Plan</td><td id=\"summary\">"
                + Html.escape(counts)
                + "</td></tr></table>"
                + "<form method=\"post\" action=\"/vote\"><input type=\"hidden\" name=\"t\" value=\""
                + Html.escape(token)
                + "\"><button id=\"confirm\" type=\"submit\">"
                + choice
                + "</button></form>"
                + "<h2>Plan</h2><pre id=\"plan\">"
                + Html.escape(planText(execution))
                + "</pre>"));
  }

  private void record(HttpExchange exchange, String token) throws IOException {
    Optional<VoteLinks.Ballot> ballot = refusal(exchange, links.check(token, clock.instant()));
    if (ballot.isEmpty()) {
      return;
    }
    VoteResult result =
        castVote.cast(ballot.get().executionId(), ballot.get().voter(), ballot.get().choice());
    String choice = ballot.get().choice().id();
    if (result instanceof VoteResult.Recorded recorded) {
      send(
          exchange,
          200,
          page(
              "Vote recorded",
              "<p id=\"result\">Your "
                  + choice
                  + " is recorded ("
                  + recorded.approvals()
                  + " approvals, "
                  + recorded.rejections()
                  + " rejections)."
                  + (recorded.decided()
                      ? " It decided the vote: <b>" + recorded.decidedNow().id() + "</b>."
                      : "")
                  + "</p>"));
    } else if (result instanceof VoteResult.AlreadyDecided decided) {
      send(
          exchange,
          409,
          page(
              "Already decided",
              "<p id=\"result\">This vote was already decided: <b>"
                  + decided.decision().id()
                  + "</b>. Your vote was not counted.</p>"));
    } else if (result instanceof VoteResult.NotAVoter notAVoter) {
      send(
          exchange,
          403,
          page(
              "Not a voter",
              "<p id=\"result\">"
                  + Html.escape(notAVoter.voter())
                  + " is not a voter for this unit. No vote was recorded.</p>"));
    } else {
      send(
          exchange,
          409,
          page(
              "Not open for votes",
              "<p id=\"result\">"
                  + Html.escape(((VoteResult.NotOpen) result).reason())
                  + " No vote was recorded.</p>"));
    }
  }

  /** The ballot of a valid token, or empty after answering a forged or expired one. */
  private Optional<VoteLinks.Ballot> refusal(HttpExchange exchange, VoteLinks.Check check)
      throws IOException {
    if (check instanceof VoteLinks.Check.Valid valid) {
      return Optional.of(valid.ballot());
    }
    if (check instanceof VoteLinks.Check.Expired expired) {
      send(
          exchange,
          410,
          page(
              "Expired link",
              "<p id=\"result\">This vote link expired at "
                  + expired.ballot().expires()
                  + ". No vote was recorded.</p>"));
    } else {
      send(
          exchange,
          403,
          page(
              "Invalid link",
              "<p id=\"result\">This vote link is not valid. No vote was recorded.</p>"));
    }
    return Optional.empty();
  }

  private void status(HttpExchange exchange) throws IOException {
    try (exchange) {
      long id = currentDeployment.getAsLong();
      if (id <= 0 || deployments.find(id).isEmpty()) {
        send(exchange, 200, page("No deployment", "<p>No deployment has run yet.</p>"));
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
        500,
        page("Something went wrong", "<p>" + Html.escape(String.valueOf(e.getMessage())) + "</p>"));
  }

  private String planText(Execution execution) {
    Path text = plans.resolve(execution.name() + ".txt");
    try {
      return Files.exists(text) ? Files.readString(text) : "(no saved plan)";
    } catch (IOException e) {
      return "(the saved plan cannot be read: " + e.getMessage() + ")";
    }
  }

  private static String page(String title, String body) {
    return "<!doctype html><html><head><meta charset=\"utf-8\"><title>livegate: "
        + Html.escape(title)
        + "</title><style>body{font-family:sans-serif;margin:24px;max-width:60em}pre{background:#f4f4f4;"
        + "padding:12px;overflow:auto}td{padding:2px 12px 2px 0}button{font-size:1.2em;padding:6px 18px}</style>"
        + "</head><body><h1>"
        + Html.escape(title)
        + "</h1>"
        + body
        + "</body></html>";
  }

  private static void send(HttpExchange exchange, int status, String html) throws IOException {
    byte[] bytes = html.getBytes(StandardCharsets.UTF_8);
    exchange.getResponseHeaders().add("Content-Type", "text/html; charset=utf-8");
    exchange.getResponseHeaders().add("Cache-Control", "no-store");
    exchange
        .getResponseHeaders()
        .add(
            "Content-Security-Policy",
            "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'");
    exchange.sendResponseHeaders(status, bytes.length);
    try (OutputStream out = exchange.getResponseBody()) {
      out.write(bytes);
    }
  }

  private static byte[] readBody(InputStream in) throws IOException {
    byte[] body = in.readNBytes(MAX_BODY + 1);
    return body.length > MAX_BODY ? null : body;
  }

  private static Map<String, String> query(String raw) {
    Map<String, String> values = new HashMap<>();
    if (raw == null) {
      return values;
    }
    for (String pair : raw.split("&")) {
      int equals = pair.indexOf('=');
      if (equals > 0) {
        values.putIfAbsent(
            URLDecoder.decode(pair.substring(0, equals), StandardCharsets.UTF_8),
            URLDecoder.decode(pair.substring(equals + 1), StandardCharsets.UTF_8));
      }
    }
    return values;
  }
}
