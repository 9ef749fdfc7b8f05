package io.livegate.cli.local;

import io.livegate.aws.LambdaAdmin;
import io.livegate.statemachine.AdminCall;

/**
 * {@code livegate ui --aws}: the console of an installation on AWS, served on 127.0.0.1. Each page
 * is rendered by the admin Lambda from the metadb ({@link AdminCall}'s page request), invoked with
 * the operator's AWS credentials: no new endpoint is opened on AWS, and IAM decides who may read.
 * Like the local console, it only reads.
 */
public final class LambdaUiServer implements AutoCloseable {
  private final LambdaAdmin lambda;
  private final WebServer server;

  private LambdaUiServer(LambdaAdmin lambda, WebServer server) {
    this.lambda = lambda;
    this.server = server;
  }

  /** Serves the console that {@code lambda} renders on 127.0.0.1:{@code port}. */
  public static LambdaUiServer start(LambdaAdmin lambda, int port) {
    WebServer server;
    try {
      server = ConsoleHttp.listen(port);
    } catch (RuntimeException e) {
      lambda.close();
      throw e;
    }
    ConsoleHttp.serve(
        server,
        (path, fragment) -> lambda.page(new AdminCall.PageRequest(path, fragment)),
        502,
        "cannot read the page through the admin Lambda");
    return new LambdaUiServer(lambda, server);
  }

  public String baseUrl() {
    return "http://127.0.0.1:" + server.port();
  }

  @Override
  public void close() {
    server.close();
    lambda.close();
  }
}
