package io.livegate.lambdas.admin;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.RequestStreamHandler;
import com.fasterxml.jackson.databind.JsonNode;
import io.livegate.aws.AwsEngine;
import io.livegate.core.LivegateException;
import io.livegate.core.admin.AdminCommand;
import io.livegate.core.admin.AdminResult;
import io.livegate.core.admin.RunAdminCommand;
import io.livegate.lambdas.Handlers;
import io.livegate.statemachine.AdminCall;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.function.Supplier;

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

  /** The Lambda runtime's constructor: wires from the environment. */
  public AdminHandler() {
    this(wired(AwsEngine.fromEnvironment(System.getenv())));
  }

  public AdminHandler(Supplier<RunAdminCommand> admin) {
    this.admin = admin;
  }

  /** The admin use case as {@code engine} wires it. */
  public static Supplier<RunAdminCommand> wired(AwsEngine engine) {
    RunAdminCommand wired = engine.engine().admin();
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
    AdminResult result = admin.get().run(command);
    return AdminCall.answer(result);
  }
}
