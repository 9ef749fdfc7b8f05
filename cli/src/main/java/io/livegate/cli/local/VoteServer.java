package io.livegate.cli.local;

import io.livegate.core.Html;
import io.livegate.core.LivegateException;
import io.livegate.core.admin.Console;
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
import io.livegate.core.webhook.WebhookSignature;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.function.LongSupplier;

/**
 * The loopback web server of the local runtime. {@code GET /vote?t=…} shows a confirm page and
 * changes nothing, because mail scanners prefetch links; the page's {@code POST /vote} records the
 * vote. {@code GET /status} draws the current deployment. It binds to 127.0.0.1 unless told
 * otherwise ({@code serve --listen}).
 *
 * <p>Slow or idle clients and big bodies must not starve GitHub's deliveries or the votes: {@link
 * WebServer} says how. A vote's form is read up to {@value #MAX_BODY} bytes, a webhook's body up to
 * {@link WebhookReceiver#MAX_BODY_BYTES}, and a webhook request without a well-formed signature
 * header is refused before its body is read.
 */
public final class VoteServer implements AutoCloseable {
  private static final int MAX_BODY = 16 * 1024;

  private final WebServer server;
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
            records.votes(),
            executions,
            deployments,
            execution ->
                execution.planArtifact() == null
                    ? "(no saved plan)"
                    : records.plans().text(execution.planArtifact()),
            // the console is served at / beside the vote pages, once deploy, demo or serve set it
            execution -> Optional.ofNullable(console).map(shown -> Console.unitPath(execution)),
            clock);
    this.deployments = deployments;
    this.executions = executions;
    this.votes = records.votes();
    this.currentDeployment = currentDeployment;
    try {
      server = new WebServer(new InetSocketAddress(address, listen.port()), "livegate-http");
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
    server.route(
        VoteDesk.PATH,
        new WebServer.Route() {
          @Override
          public int maxBody() {
            return MAX_BODY;
          }

          @Override
          public WebServer.Reply tooLarge() {
            return reply(VoteDesk.page(413, "Too large", "<p>That request is too large.</p>"));
          }

          @Override
          public WebServer.Reply answer(WebServer.Request request) {
            return vote(request);
          }
        });
    server.route("/status", request -> status());
    server.route(
        "/",
        request -> {
          Console shown = console;
          if (shown != null) {
            return ConsoleHttp.answer(shown, request);
          } else if (request.path().equals("/")) {
            return new WebServer.Reply(302, Map.of("Location", "/status"), new byte[0]);
          }
          return reply(VoteDesk.page(404, "Not found", "<p>There is nothing here.</p>"));
        });
    this.baseUrl =
        listen
            .publicUrl()
            .map(url -> url.replaceAll("/+$", ""))
            .orElseGet(() -> "http://" + host(address) + ":" + server.port());
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
    server.route(
        "/webhook",
        new WebServer.Route() {
          @Override
          public int maxBody() {
            return WebhookReceiver.MAX_BODY_BYTES;
          }

          @Override
          public WebServer.Reply tooLarge() {
            return text(new WebhookResponse(413, "refused: the body is over 25 MB"));
          }

          @Override
          public Optional<WebServer.Reply> early(WebServer.Request head) {
            if (!head.method().equals("POST")) {
              return Optional.of(text(new WebhookResponse(405, "refused: the webhook takes POST")));
            }
            // No memory is spent on a body whose signature cannot match: the receiver refuses
            // the request as it would after reading it.
            if (!WebhookSignature.wellFormed(head.header(WebhookSignature.HEADER).orElse(null))) {
              return Optional.of(text(receive(receiver, head)));
            }
            return Optional.empty();
          }

          @Override
          public WebServer.Reply answer(WebServer.Request request) {
            return text(receive(receiver, request));
          }
        });
  }

  private static WebhookResponse receive(WebhookReceiver receiver, WebServer.Request request) {
    try {
      return receiver.receive(new WebhookRequest(request.headers(), request.body()));
    } catch (RuntimeException e) {
      return new WebhookResponse(503, "not handled: " + e.getMessage());
    }
  }

  private static WebServer.Reply text(WebhookResponse response) {
    return WebServer.Reply.of(
        response.status(), "text/plain; charset=utf-8", response.body() + "\n");
  }

  /** The link a voter opens to vote {@code choice}. */
  public String link(long executionId, String voter, Vote.Choice choice, Instant expires) {
    return links.link(baseUrl(), new VoteLinks.Ballot(executionId, voter, choice, expires));
  }

  @Override
  public void close() {
    server.close();
  }

  private WebServer.Reply vote(WebServer.Request request) {
    try {
      String method = request.method();
      if (method.equals("GET")) {
        return reply(desk.confirm(VoteDesk.form(request.rawQuery()).get(VoteDesk.TOKEN_PARAMETER)));
      } else if (method.equals("POST")) {
        Map<String, String> form =
            VoteDesk.form(new String(request.body(), StandardCharsets.UTF_8));
        return reply(
            desk.record(form.get(VoteDesk.TOKEN_PARAMETER), form.get(VoteDesk.REASON_PARAMETER)));
      }
      return reply(VoteDesk.page(405, "Not allowed", "<p>Use the link from your email.</p>"))
          .with("Allow", "GET, POST");
    } catch (RuntimeException e) {
      return error(e);
    }
  }

  private WebServer.Reply status() {
    try {
      long id = currentDeployment.getAsLong();
      if (id <= 0 || deployments.find(id).isEmpty()) {
        return reply(VoteDesk.page(200, "No deployment", "<p>No deployment has run yet.</p>"));
      }
      DeploymentView view = DeploymentView.of(id, deployments, executions, votes);
      Map<Long, String> states = new HashMap<>();
      view.executions()
          .forEach(
              execution ->
                  executions
                      .flowState(execution.id())
                      .ifPresent(s -> states.put(execution.id(), s)));
      return reply(200, StatusPage.render(view, states));
    } catch (RuntimeException e) {
      return error(e);
    }
  }

  /** An unexpected failure: a page that says what went wrong, never a stack trace. */
  private static WebServer.Reply error(RuntimeException e) {
    return reply(
        VoteDesk.page(
            500,
            "Something went wrong",
            "<p>" + Html.escape(String.valueOf(e.getMessage())) + "</p>"));
  }

  private static WebServer.Reply reply(VoteDesk.Page page) {
    return reply(page.status(), page.html());
  }

  private static WebServer.Reply reply(int status, String html) {
    return WebServer.Reply.of(status, "text/html; charset=utf-8", html)
        .with("Cache-Control", "no-store")
        .with(
            "Content-Security-Policy",
            "default-src 'none'; style-src 'unsafe-inline'; form-action 'self';"
                + " frame-ancestors 'none'")
        // a vote link's token must not leave in a Referer header
        .with("Referrer-Policy", "no-referrer");
  }
}
