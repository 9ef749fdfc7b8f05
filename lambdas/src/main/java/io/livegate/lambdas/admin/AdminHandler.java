package io.livegate.lambdas.admin;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.RequestStreamHandler;
import com.fasterxml.jackson.databind.JsonNode;
import io.livegate.aws.AwsEngine;
import io.livegate.aws.Env;
import io.livegate.aws.S3ExecutionLogs;
import io.livegate.core.LivegateException;
import io.livegate.core.admin.AdminCommand;
import io.livegate.core.admin.AdminResult;
import io.livegate.core.admin.Console;
import io.livegate.core.admin.ReadStatus;
import io.livegate.core.admin.RunAdminCommand;
import io.livegate.core.deploy.Execution;
import io.livegate.core.runner.ExecutionLogs;
import io.livegate.lambdas.Handlers;
import io.livegate.statemachine.AdminCall;
import io.livegate.statemachine.RuntimeContract;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * The admin Lambda, which {@code livegate admin --aws} invokes with the operator's own AWS
 * credentials: it runs one operator command ({@link AdminCall}'s request) through the engine that
 * the trigger runs, and answers the lines {@code livegate admin} prints locally; for {@code
 * livegate ui --aws} it renders a console page from the metadb, read-only. It has no Function URL:
 * only a caller whose IAM identity may {@code lambda:InvokeFunction} it reaches it.
 *
 * <p>A request that is not one (not JSON, no or an unknown command, a missing or mistyped field) is
 * answered with an error naming the field, not thrown, so the CLI can print it; a failure of the
 * metadb or of AWS is thrown and shows as the invocation's error.
 */
public final class AdminHandler implements RequestStreamHandler {
  private final Supplier<RunAdminCommand> admin;
  private final Supplier<ReadStatus> status;
  private final Supplier<Console> console;

  /** The Lambda runtime's constructor: wires from the environment. */
  public AdminHandler() {
    this(AwsEngine.fromEnvironment(System.getenv()), System.getenv());
  }

  /**
   * The handler as {@code engine} wires it, reading the execution logs from the bucket {@value
   * RuntimeContract.Artifacts#PLAN_BUCKET} names in {@code environment}.
   */
  public AdminHandler(AwsEngine engine, Map<String, String> environment) {
    this(engine, logs(engine, environment));
  }

  private AdminHandler(AwsEngine engine, S3ExecutionLogs logs) {
    this(wired(engine), status(engine, logs), console(engine, logs));
  }

  public AdminHandler(
      Supplier<RunAdminCommand> admin, Supplier<ReadStatus> status, Supplier<Console> console) {
    this.admin = admin;
    this.status = status;
    this.console = console;
  }

  /** The admin use case as {@code engine} wires it. */
  public static Supplier<RunAdminCommand> wired(AwsEngine engine) {
    RunAdminCommand wired = engine.engine().admin();
    return () -> wired;
  }

  /** {@code status} on the engine's metadb, with the logs terra-run keeps in S3. */
  private static Supplier<ReadStatus> status(AwsEngine engine, ExecutionLogs logs) {
    ReadStatus wired =
        new ReadStatus(
            engine.metadb().deployments(),
            engine.metadb().executions(),
            engine.metadb().votes(),
            logs,
            "on AWS");
    return () -> wired;
  }

  /**
   * The console ({@code livegate ui --aws}) on the engine's metadb, with the logs in S3 and the
   * copies of the plans' text kept beside them: this function may not read the saved plans.
   */
  private static Supplier<Console> console(AwsEngine engine, S3ExecutionLogs logs) {
    Console wired =
        new Console(
            new Console.Source(
                engine.metadb().deployments(),
                engine.metadb().executions(),
                engine.metadb().votes(),
                logs,
                execution -> planText(execution, logs),
                PLACE));
    return () -> wired;
  }

  private static String planText(Execution execution, S3ExecutionLogs logs) {
    if (execution.planArtifact() == null) {
      return "(not planned yet)";
    }
    return logs.plan(execution.name()).orElse(NO_PLAN_TEXT);
  }

  /**
   * Where the deployments that the console on AWS lists are recorded: the metadb of the
   * installation whose admin function renders the pages.
   */
  static final String PLACE = "in the metadb on AWS that this admin function reads";

  /** What a unit's page on AWS says of a plan whose text has no copy beside its log. */
  public static final String NO_PLAN_TEXT =
      "(no copy of this plan's text was kept beside its log, where this function reads it: it was"
          + " planned before livegate kept one; the counts above are the plan's, and the vote page"
          + " shows it whole)";

  /** The logs terra-run keeps in S3, in the bucket {@code environment} names. */
  private static S3ExecutionLogs logs(AwsEngine engine, Map<String, String> environment) {
    return new S3ExecutionLogs(
        engine.aws().build(S3Client.builder()),
        Env.required(environment, RuntimeContract.Artifacts.PLAN_BUCKET));
  }

  @Override
  public void handleRequest(InputStream input, OutputStream output, Context context)
      throws IOException {
    long started = System.nanoTime();
    JsonNode request = null;
    JsonNode answer;
    try {
      request = Handlers.read(input, "the admin request");
      answer = handle(request);
    } catch (LivegateException e) {
      answer = AdminCall.error(e.getMessage());
    }
    Handlers.write(output, answer);
    Handlers.log(context, logLine(request, answer, Duration.ofNanos(System.nanoTime() - started)));
  }

  /** A request's text in the log is cut here; a valid one (a page's path, ids) is far shorter. */
  private static final int LOGGED_REQUEST = 500;

  /**
   * What the function's log keeps of a request: what was asked, how it ended and how long it took.
   * Neither a page's body nor the lines of {@code status}, which can hold a unit's whole execution
   * log: CloudWatch keeps the requests, the metadb and S3 what they showed. An operator command's
   * lines (what abort or release-lock did) stay in the log as its record.
   */
  static String logLine(JsonNode request, JsonNode answer, Duration took) {
    String asked = request == null ? "(unreadable)" : request.toString();
    if (asked.length() > LOGGED_REQUEST) {
      asked = asked.substring(0, LOGGED_REQUEST) + "... (" + asked.length() + " characters)";
    }
    String outcome;
    if (answer.has(AdminCall.ERROR)) {
      outcome = "refused: " + answer.get(AdminCall.ERROR).asText();
    } else if (answer.has(AdminCall.BODY)) {
      outcome =
          answer.get(AdminCall.STATUS).asInt()
              + ", "
              + answer.get(AdminCall.BODY).asText().length()
              + " characters";
    } else {
      JsonNode lines = answer.get(AdminCall.LINES);
      outcome =
          (AdminCommand.Status.NAME.equals(request.path(AdminCall.COMMAND).asText())
                  ? lines.size() + " lines"
                  : lines.toString())
              + (answer.path(AdminCall.DONE).asBoolean() ? "" : ", not done");
    }
    return "admin " + asked + ": " + outcome + " in " + took.toMillis() + " ms";
  }

  /** Runs the command {@code request} asks for, or answers why it cannot. */
  public JsonNode handle(JsonNode request) {
    Optional<AdminCall.PageRequest> page;
    AdminCommand command = null;
    try {
      page = AdminCall.pageRequest(request);
      if (page.isEmpty()) {
        command = AdminCall.command(request);
      }
    } catch (LivegateException e) {
      return AdminCall.error(e.getMessage());
    }
    if (page.isPresent()) {
      return AdminCall.answer(console.get().render(page.get().path(), page.get().fragment()));
    }
    AdminResult result =
        command instanceof AdminCommand.Status read
            ? status.get().run(read)
            : admin.get().run(command);
    return AdminCall.answer(result);
  }
}
