package io.livegate.lambdas;

import com.amazonaws.services.lambda.runtime.ClientContext;
import com.amazonaws.services.lambda.runtime.CognitoIdentity;
import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.LambdaLogger;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * What the Lambda runtime hands a handler, as far as logging goes: a fake, since the runtime itself
 * runs only in AWS; the log lines are what the test reads.
 */
public final class LoggingContext implements Context {
  public final List<String> logged = new ArrayList<>();

  @Override
  public LambdaLogger getLogger() {
    return new LambdaLogger() {
      @Override
      public void log(String message) {
        logged.add(message);
      }

      @Override
      public void log(byte[] message) {
        logged.add(new String(message, StandardCharsets.UTF_8));
      }
    };
  }

  @Override
  public String getAwsRequestId() {
    return "request";
  }

  @Override
  public String getLogGroupName() {
    return "group";
  }

  @Override
  public String getLogStreamName() {
    return "stream";
  }

  @Override
  public String getFunctionName() {
    return "livegate";
  }

  @Override
  public String getFunctionVersion() {
    return "1";
  }

  @Override
  public String getInvokedFunctionArn() {
    return "arn:aws:lambda:us-east-1:000000000000:function:livegate";
  }

  @Override
  public CognitoIdentity getIdentity() {
    return null;
  }

  @Override
  public ClientContext getClientContext() {
    return null;
  }

  @Override
  public int getRemainingTimeInMillis() {
    return 10_000;
  }

  @Override
  public int getMemoryLimitInMB() {
    return 512;
  }
}
