package io.livegate.cli.local;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * What the web server refuses before it reads a body: the requests here send their headers and
 * never the body, so an answer proves nothing was waited for. (A socket timeout only ends a failing
 * test; it bounds nothing that passes.)
 */
class WebServerTest {
  private static final int MAX = 25 * 1024 * 1024;

  private WebServer server;
  private final List<Socket> sockets = new ArrayList<>();

  @BeforeEach
  void start() throws IOException {
    server = new WebServer(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), "test-http");
    server.route(
        "/",
        new WebServer.Route() {
          @Override
          public int maxBody() {
            return MAX;
          }

          @Override
          public WebServer.Reply answer(WebServer.Request request) {
            return WebServer.Reply.of(200, "text/plain", "read " + request.body().length + "\n");
          }
        });
  }

  @AfterEach
  void stop() throws IOException {
    for (Socket socket : sockets) {
      socket.close();
    }
    server.close();
  }

  @Test
  void aBodyLongerThanTheRouteTakesIsRefusedBeforeItIsRead() throws Exception {
    assertThat(answer(headersOnly(MAX + 1L))).startsWith("HTTP/1.1 413");
  }

  @Test
  void aBigBodyThatFindsNoRoomInTheBudgetIsRefusedUnreadAndSmallBodiesStillGetIn()
      throws Exception {
    // two 25 MB bodies take the big bodies' share of the 64 MB (all but the 8 MB reserve)
    headersOnly(MAX);
    headersOnly(MAX);
    while (server.bodyBytesHeld() < 2L * MAX) {
      Thread.sleep(10);
    }
    String busy = answer(headersOnly(MAX));
    assertThat(busy).startsWith("HTTP/1.1 503").contains("Retry-After: 1");

    Socket small = headersOnly(5);
    small.getOutputStream().write("hello".getBytes(StandardCharsets.US_ASCII));
    assertThat(answer(small)).startsWith("HTTP/1.1 200").endsWith("read 5\n");
  }

  @Test
  void aBodyCutOffByItsClientGivesItsShareBack() throws Exception {
    Socket cut = headersOnly(MAX);
    while (server.bodyBytesHeld() < MAX) {
      Thread.sleep(10);
    }
    cut.close();
    while (server.bodyBytesHeld() > 0) {
      Thread.sleep(10);
    }
    assertThat(server.bodyBytesHeld()).isZero();
  }

  @Test
  void aRouteMayRefuseFromTheHeadersAloneBeforeTheBodyIsRead() throws Exception {
    server.route(
        "/early",
        new WebServer.Route() {
          @Override
          public int maxBody() {
            return MAX;
          }

          @Override
          public java.util.Optional<WebServer.Reply> early(WebServer.Request head) {
            return head.header("X-Token").isEmpty()
                ? java.util.Optional.of(WebServer.Reply.of(401, "text/plain", "no token\n"))
                : java.util.Optional.empty();
          }

          @Override
          public WebServer.Reply answer(WebServer.Request request) {
            return WebServer.Reply.of(200, "text/plain", "read\n");
          }
        });
    Socket socket = connect();
    send(socket, "POST /early HTTP/1.1\r\nHost: x\r\nContent-Length: " + MAX + "\r\n\r\n");
    assertThat(answer(socket)).startsWith("HTTP/1.1 401").endsWith("no token\n");
    assertThat(server.bodyBytesHeld()).isZero();
  }

  private Socket headersOnly(long length) throws IOException {
    Socket socket = connect();
    send(socket, "POST /hook HTTP/1.1\r\nHost: x\r\nContent-Length: " + length + "\r\n\r\n");
    return socket;
  }

  private Socket connect() throws IOException {
    Socket socket = new Socket(InetAddress.getLoopbackAddress(), server.port());
    socket.setSoTimeout(60_000);
    sockets.add(socket);
    return socket;
  }

  private static void send(Socket socket, String text) throws IOException {
    OutputStream out = socket.getOutputStream();
    out.write(text.getBytes(StandardCharsets.US_ASCII));
    out.flush();
  }

  /** The whole answer: its headers and as much body as Content-Length says. */
  private static String answer(Socket socket) throws IOException {
    InputStream in = socket.getInputStream();
    StringBuilder head = new StringBuilder();
    while (!head.toString().endsWith("\r\n\r\n")) {
      int b = in.read();
      if (b < 0) {
        break;
      }
      head.append((char) b);
    }
    int length = 0;
    for (String line : head.toString().split("\r\n")) {
      if (line.toLowerCase(java.util.Locale.ROOT).startsWith("content-length:")) {
        length = Integer.parseInt(line.substring(15).trim());
      }
    }
    return head + new String(in.readNBytes(length), StandardCharsets.UTF_8);
  }
}
