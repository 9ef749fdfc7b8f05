package io.livegate.lambdas;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.livegate.aws.AwsClients;
import io.livegate.aws.AwsEngine;
import io.livegate.aws.AwsSettings;
import io.livegate.core.LivegateException;
import io.livegate.lambdas.approval.ApprovalWiring;
import io.livegate.lambdas.webhook.WebhookWiring;
import io.livegate.statemachine.RuntimeContract;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.ssm.SsmClient;

/**
 * Priming, as SnapStart runs it before the snapshot, must open no connection: the AWS endpoint and
 * the metadb point at listeners that count every connection made to them.
 */
class SnapStartPrimingTest {
  private Listener aws;
  private Listener metadb;
  private Map<String, String> environment;

  @BeforeEach
  void listen() throws IOException {
    aws = new Listener();
    metadb = new Listener();
    environment = new HashMap<>();
    environment.put("AWS_REGION", "us-east-1");
    environment.put("AWS_ACCESS_KEY_ID", "test");
    environment.put("AWS_SECRET_ACCESS_KEY", "test");
    environment.put(AwsSettings.ENDPOINT, "http://127.0.0.1:" + aws.port());
    environment.put(
        "LIVEGATE_DB_URL", "jdbc:postgresql://127.0.0.1:" + metadb.port() + "/livegate");
    environment.put("LIVEGATE_DB_USER", "livegate");
    environment.put(
        RuntimeContract.Engine.STATE_MACHINE, "arn:aws:states:us-east-1:1:stateMachine:flow");
    environment.put(RuntimeContract.Engine.LOCK_PARAMETER, "/livegate/merge-lock");
    environment.put("LIVEGATE_CLUSTER_ARN", "arn:aws:ecs:us-east-1:1:cluster/livegate");
    environment.put("LIVEGATE_SUBNET_IDS", "subnet-1");
    environment.put("LIVEGATE_SECURITY_GROUP_IDS", "sg-1");
    environment.put("LIVEGATE_CREATE_DEPLOY_STACK_TASK_DEFINITION", "create-deploy-stack:1");
    environment.put("LIVEGATE_PR_PLAN_TASK_DEFINITION", "pr-plan:1");
    environment.put(RuntimeContract.Webhook.WEBHOOK_SECRET, "livegate/webhook-secret");
    environment.put(RuntimeContract.Webhook.REPOSITORY, "example/live");
    environment.put(RuntimeContract.Approval.VOTE_KEY_SECRET, "livegate/vote-link-key");
    environment.put("LIVEGATE_VOTE_BASE_URL", "https://vote.example.com");
    environment.put("LIVEGATE_MAIL_FROM", "livegate@example.com");
    environment.put("LIVEGATE_PLAN_BUCKET", "livegate-plans");
    environment.put(
        RuntimeContract.Tasks.TRIGGER_FUNCTION, "arn:aws:lambda:us-east-1:1:function:trigger:live");
  }

  @AfterEach
  void close() throws IOException {
    aws.close();
    metadb.close();
  }

  @Test
  void primingTheEngineConnectsNowhereAndLeavesItsClientsSending() {
    AwsEngine engine = AwsEngine.fromEnvironment(environment);

    SnapStartPriming.prime(engine.aws(), engine.metadb());
    SnapStartPriming.prime(engine.aws(), engine.metadb());

    assertThat(aws.connections()).isZero();
    assertThat(metadb.connections()).isZero();
    // After priming, a real call is sent again (and fails here: the listener answers nothing).
    assertThatThrownBy(() -> engine.secrets().text("livegate/anything"))
        .isInstanceOf(LivegateException.class);
    assertThat(aws.connections()).isPositive();
  }

  @Test
  void primingTheApprovalAndWebhookWiringsConnectsNowhere() {
    ApprovalWiring.fromEnvironment(environment).prime();
    WebhookWiring.fromEnvironment(environment).prime();

    assertThat(aws.connections()).isZero();
    assertThat(metadb.connections()).isZero();
  }

  @Test
  void aDryCallThatFailsOtherwiseFailsThePriming() {
    AwsClients clients = new AwsClients(AwsSettings.from(environment));
    clients.build(
        SsmClient.builder(),
        ssm -> {
          throw new IllegalArgumentException("a broken dry call");
        });

    assertThatThrownBy(clients::prime)
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("a broken dry call");
  }

  @Test
  void aDryCallThatSendsNothingFailsThePriming() {
    AwsClients clients = new AwsClients(AwsSettings.from(environment));
    clients.build(SsmClient.builder(), ssm -> {});

    assertThatThrownBy(clients::prime)
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("a dry call returned without reaching the HTTP client");
  }

  /** Accepts connections on loopback, counts them and closes them at once. */
  private static final class Listener implements AutoCloseable {
    private final ServerSocket socket = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    private final AtomicInteger connections = new AtomicInteger();

    Listener() throws IOException {
      Thread thread =
          new Thread(
              () -> {
                while (!socket.isClosed()) {
                  try (Socket accepted = socket.accept()) {
                    connections.incrementAndGet();
                  } catch (IOException closed) {
                    return;
                  }
                }
              },
              "priming-listener");
      thread.setDaemon(true);
      thread.start();
    }

    int port() {
      return socket.getLocalPort();
    }

    int connections() {
      return connections.get();
    }

    @Override
    public void close() throws IOException {
      socket.close();
    }
  }
}
