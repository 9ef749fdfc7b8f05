package io.livegate.process;

import static org.assertj.core.api.Assertions.assertThat;

import io.livegate.core.deploy.Execution;
import io.livegate.core.runner.RunnerArgv;
import io.livegate.core.runner.Sandbox;
import io.livegate.core.unit.UnitRunner;
import io.livegate.scan.SandboxedPlan;
import io.livegate.scan.repo.SourceAccess;
import io.livegate.scan.testing.TestRepo;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An apply killed together with livegate leaves its state lock behind in a remote backend: the S3
 * backend's lock file, here in moto_server's S3. The resumed run releases exactly that lock (it
 * recorded the apply's start, and the lock names the same user and host and a later time), and
 * never one that anything else holds.
 */
@Tag("terraform")
@Tag("moto")
class InterruptedApplyStateLockTest {
  private static final String UNIT = "app";
  private static final String BUILTIN = "terraform.io/builtin/terraform";
  private static final HttpClient HTTP =
      HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

  /** moto answers anonymous reads of objects with 403; it does not check the signature. */
  private static final String AUTHORIZATION =
      "AWS4-HMAC-SHA256 Credential=test/20261125/us-east-1/s3/aws4_request,"
          + " SignedHeaders=host, Signature=00";

  private static Process moto;
  private static URI endpoint;

  @TempDir Path dir;
  private String bucket;
  private Path unit;
  private TerraRun terraRun;

  @BeforeAll
  static void startMoto() throws Exception {
    int port;
    try (ServerSocket socket = new ServerSocket(0)) {
      port = socket.getLocalPort();
    }
    moto =
        new ProcessBuilder(
                "python3", "-m", "moto.server", "-H", "127.0.0.1", "-p", Integer.toString(port))
            .redirectErrorStream(true)
            .redirectOutput(ProcessBuilder.Redirect.DISCARD)
            .start();
    endpoint = URI.create("http://127.0.0.1:" + port);
    Instant deadline = Instant.now().plusSeconds(30);
    while (true) {
      try {
        HTTP.send(HttpRequest.newBuilder(endpoint).build(), HttpResponse.BodyHandlers.discarding());
        return;
      } catch (IOException notYet) {
        assertThat(Instant.now()).as("moto_server answers").isBefore(deadline);
        Thread.sleep(100);
      }
    }
  }

  @AfterAll
  static void stopMoto() {
    moto.destroy();
  }

  @BeforeEach
  void writeTheUnit() throws Exception {
    bucket = "state-" + UUID.randomUUID();
    assertThat(put("/" + bucket, "").statusCode()).isEqualTo(200);
    TestRepo repo = TestRepo.create(dir.resolve("live"));
    repo.write(
        UNIT + "/main.tf",
        """
        terraform {
          backend "s3" {
            bucket                      = "%s"
            key                         = "app/terraform.tfstate"
            region                      = "us-east-1"
            use_lockfile                = true
            endpoints                   = { s3 = "%s" }
            use_path_style              = true
            skip_credentials_validation = true
            skip_requesting_account_id  = true
            skip_metadata_api_check     = true
          }
        }

        resource "terraform_data" "app" {
          input = "v1"
          provisioner "local-exec" {
            command = "until [ -e '%s' ]; do sleep 0.1; done"
          }
        }
        """
            .formatted(bucket, endpoint, released()));
    unit = repo.root().resolve(UNIT);
    Path cliConfig = Files.writeString(dir.resolve("terraformrc"), "");
    terraRun =
        new TerraRun(
            new SandboxedPlan.Tools(
                new ProcessCommandRunner(),
                RunnerArgv.TERRAFORM,
                Sandbox.none("terraform runs without a sandbox"),
                Map.of(
                    "AWS_ACCESS_KEY_ID", "test",
                    "AWS_SECRET_ACCESS_KEY", "test",
                    "AWS_REGION", "us-east-1",
                    "TF_CLI_CONFIG_FILE", cliConfig.toString())),
            repo.root(),
            Files.createDirectories(dir.resolve("plans")),
            SourceAccess.in(dir.resolve("state")));
  }

  @Test
  void theLockAKilledApplyLeftIsReleasedAndTheApprovedChangesFinish() throws Exception {
    Execution planned = UnitExecutions.planned(terraRun, execution());
    killTheApplyWhileItHoldsTheLock(planned);
    assertThat(lockFile().statusCode()).as("the killed apply left its lock").isEqualTo(200);

    UnitRunner.Step<UnitRunner.Resumed> resumed =
        terraRun.finishInterruptedApply(planned, Set.of(BUILTIN));

    assertThat(resumed.error()).isNull();
    assertThat(resumed.value().detail())
        .startsWith("completed an interrupted apply (terraform_data.app: create)")
        .containsPattern("; released the state lock [0-9a-f-]{36} that the interrupted apply left");
    assertThat(resumed.value().newResources()).containsExactly("terraform_data.app");
    assertThat(lockFile().statusCode()).as("no lock is left").isEqualTo(404);
  }

  @Test
  void aLockThatAnotherRunHoldsIsNeverBroken() throws Exception {
    Execution planned = UnitExecutions.planned(terraRun, execution());
    killTheApplyWhileItHoldsTheLock(planned);
    String foreign =
        "{\"ID\":\"0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0\",\"Operation\":\"OperationTypeApply\","
            + "\"Info\":\"\",\"Who\":\"someone@elsewhere\",\"Version\":\"1.11.4\",\"Created\":\""
            + Instant.now()
            + "\",\"Path\":\""
            + bucket
            + "/app/terraform.tfstate\"}";
    assertThat(put(lockPath(), foreign).statusCode()).isEqualTo(200);

    UnitRunner.Step<UnitRunner.Resumed> resumed =
        terraRun.finishInterruptedApply(planned, Set.of(BUILTIN));

    assertThat(resumed.error())
        .startsWith("the state of app is locked by someone@elsewhere (OperationTypeApply since ")
        .contains("lock 0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0")
        .contains("livegate never breaks a lock it did not leave");
    assertThat(lockFile().body()).as("the lock is still the other run's").isEqualTo(foreign);
  }

  /** Starts the apply, waits until it holds the lock, and kills terraform and its children. */
  private void killTheApplyWhileItHoldsTheLock(Execution planned) throws Exception {
    CompletableFuture<UnitRunner.Step<List<String>>> apply =
        CompletableFuture.supplyAsync(() -> terraRun.apply(planned, Set.of(BUILTIN)));
    Path pidFile = terraRun.applyPidFile(planned);
    Instant deadline = Instant.now().plusSeconds(20);
    while (!Files.exists(pidFile) || lockFile().statusCode() != 200) {
      assertThat(Instant.now()).as("the apply takes its lock").isBefore(deadline);
      assertThat(apply).as("the apply is still running").isNotDone();
      Thread.sleep(50);
    }
    String group = "-" + Files.readString(pidFile).strip();
    assertThat(new ProcessBuilder("kill", "-KILL", "--", group).start().waitFor()).isZero();
    assertThat(apply.get(30, TimeUnit.SECONDS).error()).as("the killed apply failed").isNotNull();
    Files.writeString(released(), "");
  }

  /** The provisioner waits for this file, so the apply holds its lock until the test kills it. */
  private Path released() {
    return dir.resolve("released");
  }

  private Execution execution() {
    return UnitExecutions.execution(UNIT, "d1-app", List.of());
  }

  private String lockPath() {
    return "/" + bucket + "/app/terraform.tfstate.tflock";
  }

  private HttpResponse<String> lockFile() throws IOException, InterruptedException {
    return HTTP.send(
        HttpRequest.newBuilder(endpoint.resolve(lockPath()))
            .header("Authorization", AUTHORIZATION)
            .timeout(Duration.ofSeconds(10))
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }

  private static HttpResponse<String> put(String path, String body)
      throws IOException, InterruptedException {
    return HTTP.send(
        HttpRequest.newBuilder(endpoint.resolve(path))
            .header("Authorization", AUTHORIZATION)
            .PUT(HttpRequest.BodyPublishers.ofString(body))
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }
}
