package io.livegate.cli.local;

import com.sun.management.UnixOperatingSystemMXBean;
import io.livegate.cli.example.ExampleRepo;
import io.livegate.core.webhook.WebhookReceiver;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The load of issue 24 on a {@code livegate serve} of its own, in a 512 MB heap that ends the JVM
 * at its first {@code OutOfMemoryError}: {@value #IDLE} connections that sent half a request and
 * then one more header line every {@value #TRICKLE_SECONDS} s, never ending it (so that no idle
 * timeout ends them either: what they cost is held for as long as the load runs), and {@value #BIG}
 * clients that each post 25 MB bodies with a wrong signature to the webhook, one after another,
 * until closed. Shared by {@code ServerUnderLoadTest} (that the answers come, and nothing runs out
 * of memory) and {@code ServerLoadBenchmark} (how long they take).
 */
public final class ServerLoad implements AutoCloseable {
  public static final int IDLE = 2000;
  public static final int BIG = 40;
  private static final int TRICKLE_SECONDS = 5;
  private static final List<String> HEAP = List.of("-Xmx512m", "-XX:+ExitOnOutOfMemoryError");
  private static final byte[] CHUNK = new byte[64 * 1024];

  private final ServeProcess serve;
  private final URI base;
  // written by press() while the trickle thread already reads it
  private final List<Socket> idle = new CopyOnWriteArrayList<>();
  private final List<Thread> senders = new ArrayList<>();
  private final AtomicBoolean stopping = new AtomicBoolean();
  private final Map<String, Integer> bigAnswers = new TreeMap<>();

  private ServerLoad(ServeProcess serve) {
    this.serve = serve;
    this.base = URI.create(serve.webhook()).resolve("/");
  }

  /** Starts serve on an example repository in {@code dir}, not loaded yet. */
  public static ServerLoad serve(Path dir) throws IOException {
    Path repo = dir.resolve("repo");
    ExampleRepo.create(repo);
    return new ServerLoad(
        ServeProcess.start(HEAP, ServeProcess.oneAccount(dir, repo, dir.resolve("state"))));
  }

  /**
   * Opens the idle connections and starts the big bodies.
   *
   * @throws IllegalStateException when this JVM may not open enough files (serve inherits the same
   *     limit)
   */
  public void press() throws IOException {
    if (ManagementFactory.getOperatingSystemMXBean() instanceof UnixOperatingSystemMXBean os
        && os.getMaxFileDescriptorCount() < 2L * IDLE + 1000) {
      throw new IllegalStateException(
          "ulimit -n is "
              + os.getMaxFileDescriptorCount()
              + ": the load needs "
              + IDLE
              + " sockets here and as many in serve; raise it (ulimit -n 10000) and run again");
    }
    // trickling from the first connection on: on a loaded machine opening them all can take longer
    // than serve's idle timeout, and the first ones must not lapse while the last are opened
    Thread trickle = new Thread(this::trickle, "slow-headers");
    trickle.setDaemon(true);
    senders.add(trickle);
    trickle.start();
    for (int i = 0; i < IDLE; i++) {
      Socket socket = new Socket(base.getHost(), base.getPort());
      OutputStream out = socket.getOutputStream();
      out.write(
          "POST /webhook HTTP/1.1\r\nHost: x\r\nContent-Length: 10\r\n"
              .getBytes(StandardCharsets.US_ASCII));
      out.flush();
      idle.add(socket);
    }
    for (int i = 0; i < BIG; i++) {
      Thread sender = new Thread(this::sendBigBodies, "big-body-" + i);
      sender.setDaemon(true);
      senders.add(sender);
      sender.start();
    }
  }

  /** How many big bodies have been answered, by status ("closed" when cut without one). */
  public Map<String, Integer> bigAnswers() {
    synchronized (bigAnswers) {
      return new TreeMap<>(bigAnswers);
    }
  }

  /** How many big bodies have been answered in all. */
  public int bigAnswered() {
    return bigAnswers().values().stream().mapToInt(Integer::intValue).sum();
  }

  /** How many of the idle connections serve still holds open. */
  public int idleStillOpen() throws IOException {
    int open = 0;
    for (Socket socket : idle) {
      if (stillOpen(socket)) {
        open++;
      }
    }
    return open;
  }

  /** A signed {@code ping} delivery, as GitHub sends it when a webhook is made. */
  public HttpResponse<String> ping() throws IOException, InterruptedException {
    byte[] body =
        "{\"zen\":\"Design for failure.\",\"hook_id\":1}".getBytes(StandardCharsets.UTF_8);
    return ServeProcess.deliver(
        base.resolve("/webhook").toString(), "ping", body, UUID.randomUUID().toString());
  }

  /** A voter's answer: the confirm page's POST, here of a link serve never sent. */
  public HttpResponse<String> vote() {
    return VoteClient.confirm(base.resolve("/vote?t=forged").toString());
  }

  /** Whether serve still runs (an OutOfMemoryError would have ended it), and its output. */
  public boolean serveAlive() {
    return serve.isAlive();
  }

  public String serveLog() {
    return serve.log();
  }

  private void trickle() {
    byte[] line = "X-Slow: 1\r\n".getBytes(StandardCharsets.US_ASCII);
    while (!stopping.get()) {
      try {
        Thread.sleep(TRICKLE_SECONDS * 1000L);
      } catch (InterruptedException e) {
        return;
      }
      for (Socket socket : idle) {
        try {
          socket.getOutputStream().write(line);
        } catch (IOException closed) {
          // idleStillOpen counts it
        }
      }
    }
  }

  private void sendBigBodies() {
    String head =
        "POST /webhook HTTP/1.1\r\nHost: x\r\nX-GitHub-Event: pull_request\r\n"
            + "X-GitHub-Delivery: "
            + UUID.randomUUID()
            + "\r\nX-Hub-Signature-256: sha256="
            + "0".repeat(64)
            + "\r\nContent-Type: application/json\r\nContent-Length: "
            + WebhookReceiver.MAX_BODY_BYTES
            + "\r\nConnection: close\r\n\r\n";
    while (!stopping.get()) {
      String answer;
      try (Socket socket = new Socket(base.getHost(), base.getPort())) {
        OutputStream out = socket.getOutputStream();
        try {
          out.write(head.getBytes(StandardCharsets.US_ASCII));
          for (int sent = 0; sent < WebhookReceiver.MAX_BODY_BYTES; sent += CHUNK.length) {
            out.write(CHUNK, 0, Math.min(CHUNK.length, WebhookReceiver.MAX_BODY_BYTES - sent));
          }
          out.flush();
        } catch (IOException refusedEarly) {
          // answered before the body was read, and the connection closed: read the answer
        }
        answer = status(socket.getInputStream());
      } catch (IOException e) {
        answer = "closed";
      }
      if (!stopping.get()) {
        synchronized (bigAnswers) {
          bigAnswers.merge(answer, 1, Integer::sum);
        }
      }
    }
  }

  /** The status code of the answer on {@code in}, or "closed". */
  private static String status(InputStream in) {
    try {
      byte[] line = new byte[12];
      int read = in.readNBytes(line, 0, line.length);
      String text = new String(line, 0, read, StandardCharsets.US_ASCII);
      return text.startsWith("HTTP/1.1 ") && read == 12 ? text.substring(9, 12) : "closed";
    } catch (IOException e) {
      return "closed";
    }
  }

  /** Whether the server has not closed {@code socket}: a read waits rather than ending. */
  static boolean stillOpen(Socket socket) throws IOException {
    socket.setSoTimeout(1);
    try {
      return socket.getInputStream().read() != -1;
    } catch (SocketTimeoutException waiting) {
      return true;
    } catch (SocketException closed) {
      return false;
    }
  }

  @Override
  public void close() throws IOException {
    stopping.set(true);
    for (Socket socket : idle) {
      socket.close();
    }
    serve.close();
    for (Thread sender : senders) {
      try {
        sender.join();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
  }
}
