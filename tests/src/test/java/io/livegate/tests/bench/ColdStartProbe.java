package io.livegate.tests.bench;

import com.amazonaws.services.lambda.runtime.RequestStreamHandler;
import io.livegate.lambdas.SnapStartPriming;
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
 * approval-request}, {@code approval-response}, {@code webhook}) and the event, Base64. With
 * {@value #PRIMED} set, the handler's priming runs between construction and the event. Prints one
 * line: {@code probe <ms from JVM start to main> <ms in main> <ms of the event> <answer>}, then
 * exits.
 */
public final class ColdStartProbe {
  /**
   * The system property that makes the probe run the handler's SnapStart priming after constructing
   * it, as Lambda does before a snapshot, and before the event.
   */
  static final String PRIMED = "livegate.bench.primed";

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
    if (Boolean.getBoolean(PRIMED)) {
      SnapStartPriming.primeRegistered();
    }
    ByteArrayOutputStream output = new ByteArrayOutputStream();
    long event = System.nanoTime();
    handler.handleRequest(
        new ByteArrayInputStream(Base64.getDecoder().decode(args[1])), output, null);
    long done = System.nanoTime();
    double inMain = (done - started) / 1e6;
    double eventMs = (done - event) / 1e6;
    long toMain = entered - ManagementFactory.getRuntimeMXBean().getStartTime();
    String answer = output.toString(StandardCharsets.UTF_8).replaceAll("\\s+", " ");
    System.out.println(
        "probe "
            + toMain
            + " "
            + String.format("%.1f", inMain)
            + " "
            + String.format("%.1f", eventMs)
            + " "
            + answer);
    System.out.flush();
    System.exit(0);
  }
}
