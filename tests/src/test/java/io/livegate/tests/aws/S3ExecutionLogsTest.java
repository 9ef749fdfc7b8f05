package io.livegate.tests.aws;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.livegate.aws.S3ExecutionLogs;
import io.livegate.core.runner.BoundedLog;
import io.livegate.tests.moto.MotoServer;
import java.time.Instant;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import software.amazon.awssdk.services.s3.S3Client;

/** The execution logs of the AWS runtime, in moto_server's S3: kept, read back, and bounded. */
@Tag("moto")
class S3ExecutionLogsTest {
  @RegisterExtension static final MotoServer MOTO = new MotoServer();
  private static final Instant AT = Instant.parse("2026-11-27T10:00:00Z");

  private final S3Client s3 = MOTO.client(S3Client.builder());

  @Test
  void eachCommandsOutputIsKeptInTheBucketAndReadBackInOrder() {
    s3.createBucket(request -> request.bucket("logs-kept"));
    S3ExecutionLogs logs = new S3ExecutionLogs(s3, "logs-kept");

    assertThat(logs.read("d1-app")).isEmpty();
    logs.append("d1-app", "terraform plan", 0, "Plan: 1 to add\n", AT);
    logs.append("d1-app", "terraform apply", 1, "Error: creating thing", AT.plusSeconds(5));

    assertThat(logs.read("d1-app"))
        .contains(
            "--- 2026-11-27T10:00:00Z  terraform plan  (exit 0)\n    Plan: 1 to add\n"
                + "--- 2026-11-27T10:00:05Z  terraform apply  (exit 1)\n    Error: creating thing\n");
    assertThat(
            s3.getObjectAsBytes(request -> request.bucket("logs-kept").key("logs/d1-app.log"))
                .asUtf8String())
        .isEqualTo(logs.read("d1-app").orElseThrow());
  }

  @Test
  void aLogStaysBoundedAndKeepsTheEndOfEachCommandsOutput() {
    s3.createBucket(request -> request.bucket("logs-bounded"));
    S3ExecutionLogs logs = new S3ExecutionLogs(s3, "logs-bounded");
    String output = "x".repeat(BoundedLog.HEAD + BoundedLog.TAIL) + "\nError: at the end\n";

    for (int command = 0; command < 12; command++) {
      logs.append("d1-app", "terraform apply", 1, output, AT);
    }

    String log = logs.read("d1-app").orElseThrow();
    assertThat(log.length()).isLessThanOrEqualTo(BoundedLog.MAX_LOG);
    assertThat(log).contains("    Error: at the end\n--- 2026-11-27T10:00:00Z  terraform apply");
    assertThat(log).endsWith("--- this log reached its size limit; later output is not kept\n");
  }

  @Test
  void aPlansTextIsCopiedBesideItsLogBoundedAndEscapedAndTheLogIsLeftAsItWas() {
    s3.createBucket(request -> request.bucket("logs-plans"));
    S3ExecutionLogs logs = new S3ExecutionLogs(s3, "logs-plans");
    logs.append("d1-app", "terraform plan", 0, "Plan: 1 to add\n", AT);
    String log = logs.read("d1-app").orElseThrow();
    String plan =
        "  # terraform_data.this will be created\n  + input = \"\u001b[31mred\"\n"
            + "x".repeat(BoundedLog.HEAD + BoundedLog.TAIL)
            + "\nPlan: 1 to add, 0 to change, 0 to destroy.\n";

    assertThat(logs.plan("d1-app")).isEmpty();
    logs.keepPlan("d1-app", plan);

    String kept = logs.plan("d1-app").orElseThrow();
    assertThat(kept)
        .startsWith("  # terraform_data.this will be created\n  + input = \"\\e[31mred\"\n")
        .contains("characters left out")
        .endsWith("\nPlan: 1 to add, 0 to change, 0 to destroy.\n")
        .isEqualTo(BoundedLog.kept(plan));
    assertThat(
            s3.getObjectAsBytes(request -> request.bucket("logs-plans").key("logs/d1-app.plan.txt"))
                .asUtf8String())
        .isEqualTo(kept);
    assertThat(logs.read("d1-app")).contains(log);
    assertThatThrownBy(() -> logs.keepPlan("../plans/d1-app", plan))
        .hasMessage("'../plans/d1-app' is not an execution name");
  }

  @Test
  void aNameThatIsNotAnExecutionsIsRefusedBeforeS3IsAsked() {
    S3ExecutionLogs logs = new S3ExecutionLogs(s3, "no-such-bucket");

    assertThatThrownBy(() -> logs.read("../plans/d1-app"))
        .hasMessage("'../plans/d1-app' is not an execution name");
  }
}
