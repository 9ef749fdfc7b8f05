package io.livegate.tests.bench;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.RequestStreamHandler;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;

/** The cold-start baseline: a handler that reads its event and answers an empty object. */
public final class EmptyHandler implements RequestStreamHandler {
  @Override
  public void handleRequest(InputStream input, OutputStream output, Context context)
      throws IOException {
    input.readAllBytes();
    output.write("{}".getBytes(StandardCharsets.UTF_8));
  }
}
