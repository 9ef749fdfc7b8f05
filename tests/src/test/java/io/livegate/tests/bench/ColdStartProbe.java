package io.livegate.tests.bench;

import com.amazonaws.services.lambda.runtime.RequestStreamHandler;
import io.livegate.lambdas.approval.ApprovalRequestHandler;
import io.livegate.lambdas.approval.ApprovalResponseHandler;
import io.livegate.lambdas.trigger.TriggerHandler;
import io.livegate.lambdas.webhook.WebhookHandler;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.util.Base64;

/**
 * One cold start, in the fresh JVM that {@link ColdStartBenchmark} launches: constructs a handler
 * with its production constructor (which reads the environment) and serves one event. Arguments:
 * the handler ({@code empty}, {@code tls-floor}, {@code sdk-floor}, {@code trigger}, {@code
 * approval-request}, {@code approval-response}, {@code webhook}) and the event, Base64. Prints one
 * line: {@code probe <ms from JVM start to main> <ms in main> <answer>}, then exits.
 */
public final class ColdStartProbe {
  private ColdStartProbe() {}

  public static void main(String[] args) throws Exception {
    long entered = System.currentTimeMillis();
    long started = System.nanoTime();
    RequestStreamHandler handler =
        switch (args[0]) {
          case "empty" -> new EmptyHandler();
          case "tls-floor" -> new FloorHandlers.Tls();
          case "sdk-floor" -> new FloorHandlers.Sdk();
          case "trigger" -> new TriggerHandler();
          case "approval-request" -> new ApprovalRequestHandler();
          case "approval-response" -> new ApprovalResponseHandler();
          case "webhook" -> new WebhookHandler();
          default -> throw new IllegalArgumentException("no handler " + args[0]);
        };
    ByteArrayOutputStream output = new ByteArrayOutputStream();
    handler.handleRequest(
        new ByteArrayInputStream(Base64.getDecoder().decode(args[1])), output, null);
    double inMain = (System.nanoTime() - started) / 1e6;
    long toMain = entered - ManagementFactory.getRuntimeMXBean().getStartTime();
    String answer = output.toString(StandardCharsets.UTF_8).replaceAll("\\s+", " ");
    System.out.println("probe " + toMain + " " + String.format("%.1f", inMain) + " " + answer);
    System.out.flush();
    System.exit(0);
  }
}
