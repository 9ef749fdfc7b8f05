package io.livegate.cli.local;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.livegate.cli.Livegate;
import io.livegate.core.webhook.WebhookSignature;
import io.livegate.sql.testing.Webhooks;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.function.BooleanSupplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** {@code livegate serve} in a JVM of its own, as an operator runs it, and GitHub's deliveries. */
final class ServeProcess implements AutoCloseable {
  private static final Pattern SERVING = Pattern.compile("POST (http://\\S+)/webhook");

  private final Process process;
  private final List<String> lines = Collections.synchronizedList(new ArrayList<>());
  private final String webhook;

  private ServeProcess(List<String> jvmOptions, List<String> arguments) throws IOException {
    List<String> serve = new ArrayList<>(List.of("serve"));
    serve.addAll(arguments);
    process =
        new ProcessBuilder(ChildJvm.command(jvmOptions, Livegate.class, serve))
            .redirectErrorStream(true)
            .start();
    BufferedReader out =
        new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
    String found = null;
    for (String line = out.readLine(); line != null; line = out.readLine()) {
      lines.add(line);
      Matcher serving = SERVING.matcher(line);
      if (serving.find()) {
        found = serving.group(1) + "/webhook";
        break;
      }
    }
    if (found == null) {
      throw new AssertionError("serve did not start:\n" + log());
    }
    webhook = found;
    Thread reader = new Thread(() -> out.lines().forEach(lines::add), "serve-output");
    reader.setDaemon(true);
    reader.start();
  }

  /**
   * serve's arguments for a repository at a local path that GitHub's example payloads name ({@link
   * Webhooks#REPOSITORY}, trunk {@link Webhooks#TRUNK}), with the terraform runner on a free port,
   * and {@code more}.
   */
  static List<String> arguments(Path repo, Path accounts, Path secret, Path state, String... more) {
    List<String> arguments =
        new ArrayList<>(
            List.of(
                "--repo-url",
                repo.toString(),
                "--repository",
                Webhooks.REPOSITORY,
                "--trunk",
                Webhooks.TRUNK,
                "--accounts",
                accounts.toString(),
                "--webhook-secret-file",
                secret.toString(),
                "--runner",
                "terraform",
                "--port",
                "0",
                "--state-dir",
                state.toString()));
    arguments.addAll(List.of(more));
    return arguments;
  }

  /**
   * {@link #arguments} for the repository at {@code repo} as one account, with the accounts file
   * and the webhook secret written into {@code dir}.
   */
  static List<String> oneAccount(Path dir, Path repo, Path state, String... more)
      throws IOException {
    Path accounts =
        Files.writeString(dir.resolve("livegate.hcl"), "account \"all\" {\n  path = \"\"\n}\n");
    Path secret = Files.writeString(dir.resolve("webhook-secret"), Webhooks.SECRET);
    return arguments(repo, accounts, secret, state, more);
  }

  /** Starts serve with {@code arguments} and waits until it serves its webhook. */
  static ServeProcess start(List<String> arguments) throws IOException {
    return new ServeProcess(List.of(), arguments);
  }

  /** Starts serve in a JVM with {@code jvmOptions} (a heap size, say). */
  static ServeProcess start(List<String> jvmOptions, List<String> arguments) throws IOException {
    return new ServeProcess(jvmOptions, arguments);
  }

  /**
   * GitHub's payload of pull request {@code number} merged as {@code mergeCommit} onto {@code
   * base}.
   */
  static ObjectNode merged(int number, String mergeCommit, String base) {
    ObjectNode payload = Webhooks.merged(number, mergeCommit);
    ((ObjectNode) payload.get("pull_request").get("base")).put("sha", base);
    return payload;
  }

  /** Posts {@code payload} as GitHub does: signed, as event pull_request, with its delivery id. */
  HttpResponse<String> deliver(ObjectNode payload, String delivery) throws Exception {
    return deliver(webhook, payload, delivery);
  }

  /** Posts {@code payload} to {@code webhook} as GitHub does. */
  static HttpResponse<String> deliver(String webhook, ObjectNode payload, String delivery)
      throws IOException, InterruptedException {
    return deliver(webhook, "pull_request", Webhooks.bytes(payload), delivery);
  }

  /** Posts {@code body} to {@code webhook} as GitHub does, as {@code event}. */
  static HttpResponse<String> deliver(String webhook, String event, byte[] body, String delivery)
      throws IOException, InterruptedException {
    return HttpClient.newHttpClient()
        .send(
            HttpRequest.newBuilder(URI.create(webhook))
                .header("X-GitHub-Event", event)
                .header("X-GitHub-Delivery", delivery)
                .header(
                    "X-Hub-Signature-256",
                    WebhookSignature.sign(WebhookSignature.secret(Webhooks.SECRET), body))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofByteArray(body))
                .build(),
            HttpResponse.BodyHandlers.ofString());
  }

  /** Waits until a line of serve's output contains {@code text} ({@link #await}). */
  void awaitLine(String text) throws InterruptedException {
    await(() -> log().contains(text), "'" + text + "'");
  }

  /**
   * Waits until {@code condition} holds; fails when serve ends first, or prints nothing for {@link
   * ChildJvm#STUCK}: what is bounded is silence, not the time a loaded machine takes.
   */
  void await(BooleanSupplier condition, String what) throws InterruptedException {
    int seen = -1;
    Instant printed = Instant.now();
    while (!condition.getAsBoolean()) {
      if (!process.isAlive() && !condition.getAsBoolean()) {
        throw new AssertionError("serve ended before " + what + ":\n" + log());
      }
      int now = lines.size();
      if (now != seen) {
        seen = now;
        printed = Instant.now();
      } else if (Instant.now().isAfter(printed.plus(ChildJvm.STUCK))) {
        throw new AssertionError(
            "serve printed nothing for "
                + ChildJvm.STUCK
                + " while waiting for "
                + what
                + ":\n"
                + log());
      }
      Thread.sleep(50);
    }
  }

  String log() {
    synchronized (lines) {
      return String.join("\n", lines);
    }
  }

  /**
   * Sends {@code signal} (e.g. TERM) to serve and waits until it exits ({@link #await}: bounded by
   * silence, not time); its exit code.
   */
  int signalAndAwaitExit(String signal) throws Exception {
    new ProcessBuilder("kill", "-" + signal, Long.toString(process.pid())).start().waitFor();
    await(() -> !process.isAlive(), "its exit after SIG" + signal);
    return process.waitFor();
  }

  boolean isAlive() {
    return process.isAlive();
  }

  /** The URL serve takes GitHub's deliveries at. */
  String webhook() {
    return webhook;
  }

  /** Stops serve (kill -9) and waits until it is gone, its state directory free again. */
  @Override
  public void close() {
    try {
      kill();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** kill -9, then waits until serve is gone; its exit code (137 if the kill ended it). */
  int kill() throws InterruptedException {
    return process.destroyForcibly().waitFor();
  }
}
