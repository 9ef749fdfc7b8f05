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
import io.livegate.core.admin.ReadStatus;
import io.livegate.core.admin.RunAdminCommand;
import io.livegate.lambdas.Handlers;
import io.livegate.statemachine.AdminCall;
import io.livegate.statemachine.RuntimeContract;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.Map;
import java.util.function.Supplier;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * The admin Lambda, which {@code livegate admin --aws} invokes with the operator's own AWS
 * credentials: it runs one operator command ({@link AdminCall}'s request) through the engine that
 * the trigger runs, and answers the lines {@code livegate admin} prints locally. It has no Function
 * URL: only a caller whose IAM identity may {@code lambda:InvokeFunction} it reaches it.
 *
 * <p>A request that is not one (not JSON, no or an unknown command, a missing or mistyped field) is
 * answered with an error naming the field, not thrown, so the CLI can print it; a failure of the
 * metadb or of AWS is thrown and shows as the invocation's error.
 */
public final class AdminHandler implements RequestStreamHandler {
  private final Supplier<RunAdminCommand> admin;
  private final Supplier<ReadStatus> status;

  /** The Lambda runtime's constructor: wires from the environment. */
  public AdminHandler() {
    this(AwsEngine.fromEnvironment(System.getenv()), System.getenv());
  }

  /**
   * The handler as {@code engine} wires it, reading the execution logs from the bucket {@value
   * RuntimeContract.Artifacts#PLAN_BUCKET} names in {@code environment}.
   */
  public AdminHandler(AwsEngine engine, Map<String, String> environment) {
    this(wired(engine), status(engine, environment));
  }

  public AdminHandler(Supplier<RunAdminCommand> admin, Supplier<ReadStatus> status) {
    this.admin = admin;
    this.status = status;
  }

  /** The admin use case as {@code engine} wires it. */
  public static Supplier<RunAdminCommand> wired(AwsEngine engine) {
    RunAdminCommand wired = engine.engine().admin();
    return () -> wired;
  }

  /** {@code status} on the engine's metadb, with the logs terra-run keeps in S3. */
  private static Supplier<ReadStatus> status(AwsEngine engine, Map<String, String> environment) {
    String bucket = Env.required(environment, RuntimeContract.Artifacts.PLAN_BUCKET);
    ReadStatus wired =
        new ReadStatus(
            engine.metadb().deployments(),
            engine.metadb().executions(),
            engine.metadb().votes(),
            new S3ExecutionLogs(engine.aws().build(S3Client.builder()), bucket),
            "on AWS");
    return () -> wired;
  }

  @Override
  public void handleRequest(InputStream input, OutputStream output, Context context)
      throws IOException {
    JsonNode answer;
    try {
      answer = handle(Handlers.read(input, "the admin request"));
    } catch (LivegateException e) {
      answer = AdminCall.error(e.getMessage());
    }
    Handlers.write(output, answer);
    Handlers.log(context, answer);
  }

  /** Runs the command {@code request} asks for, or answers why it cannot. */
  public JsonNode handle(JsonNode request) {
    AdminCommand command;
    try {
      command = AdminCall.command(request);
    } catch (LivegateException e) {
      return AdminCall.error(e.getMessage());
    }
    AdminResult result =
        command instanceof AdminCommand.Status read
            ? status.get().run(read)
            : admin.get().run(command);
    return AdminCall.answer(result);
  }
}
