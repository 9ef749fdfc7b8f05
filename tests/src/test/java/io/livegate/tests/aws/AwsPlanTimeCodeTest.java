package io.livegate.tests.aws;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import io.livegate.core.deploy.Execution;
import io.livegate.core.deploy.ExecutionStatus;
import io.livegate.core.scan.testing.TestRepo;
import io.livegate.core.vote.Vote;
import io.livegate.process.PlanTimeSpy;
import io.livegate.process.SetprivSandbox;
import io.livegate.tests.moto.MotoServer;
import io.livegate.tests.scenarios.LiveRepo;
import io.livegate.tests.scenarios.LiveRepos;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Code of a merged change that runs at plan time in the AWS flow, where terra-run runs terraform as
 * the image's unprivileged user ({@link SetprivSandbox}) with only the account role's session: it
 * cannot reach what the task's Java holds. The harness plays the container in this JVM, which runs
 * as root here, as the task's Java does in the image, so setpriv can drop to the user.
 */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
@Tag("moto")
@Tag("terraform")
class AwsPlanTimeCodeTest {
  @RegisterExtension static final MotoServer MOTO = new MotoServer();

  private static final int USER = SetprivSandbox.IMAGE_USER;

  @TempDir Path dir;

  private MotoDeployment flow;
  private HttpServer credentialsEndpoint;

  @BeforeEach
  void resetMoto() throws IOException {
    MOTO.reset();
    // the tasks' workspace (/tmp/livegate) is 0755, as directories made by the task are
    Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-xr-x"));
  }

  @AfterEach
  void close() {
    if (flow != null) {
      flow.close();
    }
    if (credentialsEndpoint != null) {
      credentialsEndpoint.stop(0);
    }
  }

  @Test
  void aCleanUnitPlansAndAppliesAsTheUnprivilegedUser() {
    flow = flow(LiveRepos.single(dir.resolve("live"), LiveRepos.APPS_ACCOUNTS), Map.of());

    flow.deploy();
    flow.drive(execution -> Vote.Choice.APPROVE);

    assertThat(flow.executions())
        .extracting(Execution::status)
        .containsExactly(ExecutionStatus.SUCCEEDED);
  }

  @Test
  void aPlanTimeProviderReachesNoneOfTheTasksCredentialsNorItsPlans() throws Exception {
    long java = ProcessHandle.current().pid();
    // stands in for the ECS agent's credentials endpoint: the task role's keys, at a secret path
    String credentialsPath = "/v2/credentials/" + UUID.randomUUID();
    AtomicInteger credentialsServed = new AtomicInteger();
    credentialsEndpoint = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    credentialsEndpoint.createContext(
        "/",
        exchange -> {
          boolean known = exchange.getRequestURI().getPath().equals(credentialsPath);
          byte[] body =
              (known ? "{\"AccessKeyId\":\"ASIATASKROLE\"}" : "not found")
                  .getBytes(StandardCharsets.UTF_8);
          if (known) {
            credentialsServed.incrementAndGet();
          }
          exchange.sendResponseHeaders(known ? 200 : 404, body.length);
          exchange.getResponseBody().write(body);
          exchange.close();
        });
    credentialsEndpoint.start();
    String credentialsHost = "http://127.0.0.1:" + credentialsEndpoint.getAddress().getPort();
    // another unit's approved plan in the task's plans directory, owner-only as terra-run makes it
    Path plans = Files.createDirectories(dir.resolve("terra-run/plans"));
    Path otherPlan = plans.resolve("d1-other.tfplan");
    Files.writeString(otherPlan, "the approved plan");
    Files.setPosixFilePermissions(otherPlan, PosixFilePermissions.fromString("rw-------"));

    Map<String, String> attempts = new LinkedHashMap<>();
    attempts.put("environment", "env | sort");
    attempts.put("read the task's Java environment", "tr '\\0' '\\n' < /proc/" + java + "/environ");
    attempts.put("read the task's Java memory map", "head -3 /proc/" + java + "/maps");
    attempts.put("read livegate's settings from the environment", "env | grep '^LIVEGATE'");
    attempts.put(
        "read the container credentials variables", "env | grep '^AWS_CONTAINER_CREDENTIALS'");
    attempts.put(
        "call the task's credentials",
        "curl -sS --fail-with-body -m 5"
            + " -H \"Authorization: $AWS_CONTAINER_AUTHORIZATION_TOKEN\" \"${"
            + "AWS_CONTAINER_CREDENTIALS_FULL_URI:-"
            + credentialsHost
            + "/v2/credentials/}\"");
    // moto checks no signature, so an unsigned call would pass where AWS refuses it: the attempts
    // that need AWS credentials first look for some to sign with, as an SDK would
    attempts.put(
        "find AWS credentials to sign with",
        "env | grep -E '^AWS_(ACCESS_KEY_ID|SESSION_TOKEN|PROFILE)=' || ls -A \"$HOME/.aws\"");
    attempts.put(
        "answer a task token (SendTaskSuccess)",
        "curl -sS --fail-with-body -m 5 -X POST "
            + MOTO.endpoint()
            // made-up keys: AWS refuses them; moto checks none and reaches the token check
            + " --aws-sigv4 aws:amz:us-east-1:states --user made-up:made-up"
            + " -H 'X-Amz-Target: AWSStepFunctions.SendTaskSuccess'"
            + " -H 'Content-Type: application/x-amz-json-1.0'"
            + " -d '{\"taskToken\":\"a-guessed-token\",\"output\":\"{}\"}'");
    attempts.put(
        "overwrite another unit's plan artifact in S3",
        "[ -n \"$AWS_ACCESS_KEY_ID\" ] || { echo 'no credentials to sign s3:PutObject'; exit 1; };"
            + " echo swapped | curl -sS --fail-with-body -m 5 --aws-sigv4 aws:amz:us-east-1:s3"
            + " --user \"$AWS_ACCESS_KEY_ID:$AWS_SECRET_ACCESS_KEY\""
            + " -H \"x-amz-security-token: $AWS_SESSION_TOKEN\" -T - "
            + MOTO.endpoint()
            + "/livegate-plans/deployments/1/d1-other.tfplan");
    attempts.put("read another unit's plan file", "cat " + otherPlan);
    attempts.put("overwrite another unit's plan file", "echo swapped > " + otherPlan);
    // Not attempted: logging in to the metadb. The harness's metadb is the tests' embedded
    // PostgreSQL, which trusts local logins; on AWS it is Aurora, which wants the password from
    // the metadb secret, and the attempts above show the code reaches neither that secret (no
    // credentials) nor the task's environment where the connection settings are.
    Path spyDir = Files.createDirectories(dir.resolve("spy"));
    PlanTimeSpy spy = PlanTimeSpy.install(spyDir, spyDir, attempts);
    giveToTheUser(spyDir);
    LiveRepo repo = mergedSpy(dir.resolve("live"), Files.readString(spyDir.resolve("spy.tf")));
    Map<String, String> task = new HashMap<>(spy.environment());
    task.put("LIVEGATE_TASK_TOKEN", "task-token-value");
    task.put("LIVEGATE_DB_PASSWORD", "metadb-password-value");
    task.put("AWS_CONTAINER_CREDENTIALS_FULL_URI", credentialsHost + credentialsPath);
    task.put("AWS_CONTAINER_AUTHORIZATION_TOKEN", "container-authorization-value");
    flow = flow(repo, task);

    flow.deploy();
    flow.drive(execution -> Vote.Choice.APPROVE);

    System.out.println("what the plan-time provider saw:\n" + spy.log());
    Map<String, Integer> exits = exitCodes(spy.log());
    assertThat(exits).as("the spy ran at plan time, as uid " + USER).containsKey("environment");
    assertThat(spy.lines()).contains("HOME=" + dir.resolve("terra-run/home"));
    assertThat(exits)
        .as("every attempt failed")
        .allSatisfy(
            (attempt, exit) -> {
              if (!attempt.equals("environment")) {
                assertThat(exit).as(attempt).isNotZero();
              }
            });
    assertThat(spy.log())
        .doesNotContain("LIVEGATE_")
        .doesNotContain("AWS_CONTAINER")
        .doesNotContain("task-token-value")
        .doesNotContain("metadb-password-value")
        .doesNotContain("container-authorization-value")
        .doesNotContain(credentialsPath)
        .doesNotContain("ASIATASKROLE")
        .contains("InvalidToken");
    assertThat(credentialsServed)
        .as("the task role's credentials were never handed out")
        .hasValue(0);
    assertThat(Files.readString(otherPlan)).isEqualTo("the approved plan");
    assertThat(flow.executions())
        .extracting(Execution::status)
        .as("the spy is no real provider: the plan failed and nothing was applied")
        .containsExactly(ExecutionStatus.FAILED);
  }

  private MotoDeployment flow(LiveRepo repo, Map<String, String> task) {
    Map<String, String> terraform = new HashMap<>(task);
    Path home = dir.resolve("terra-run/home");
    terraform.put("HOME", home.toString());
    return new MotoDeployment(
        MOTO,
        dir,
        repo,
        MotoDeployment.Settings.of(java.time.Duration.ofMinutes(10)),
        new SetprivSandbox(USER, USER, home),
        terraform);
  }

  /** One new unit, app/a, that requires the spy provider: the merged change. */
  private static LiveRepo mergedSpy(Path root, String spyConfig) {
    try (TestRepo repo = TestRepo.create(root)) {
      repo.write("README.md", "apps\n");
      String base = repo.commit("empty");
      repo.write("app/a/terragrunt.hcl", "inputs = {}\n")
          .write("app/a/main.tf", "resource \"terraform_data\" \"this\" {}\n")
          .write("app/a/spy.tf", spyConfig);
      String head = repo.commit("add a, with a provider of its own");
      return new LiveRepo(root, base, head, LiveRepos.APPS_ACCOUNTS);
    }
  }

  /** The spy's mirror and log are the attacker's: the user terraform runs as owns them. */
  private static void giveToTheUser(Path spyDir) throws IOException {
    try (Stream<Path> paths = Files.walk(spyDir)) {
      for (Path path : paths.toList()) {
        Files.setAttribute(path, "unix:uid", USER, LinkOption.NOFOLLOW_LINKS);
        Files.setAttribute(path, "unix:gid", USER, LinkOption.NOFOLLOW_LINKS);
      }
    }
  }

  /** Each attempt of the spy's log and the exit code it ended with. */
  private static Map<String, Integer> exitCodes(String log) {
    Map<String, Integer> exits = new LinkedHashMap<>();
    String attempt = null;
    Matcher exit = Pattern.compile("-> exit (\\d+)").matcher("");
    for (String line : List.of(log.split("\n"))) {
      if (line.startsWith("== ")) {
        attempt = line.substring(3);
      } else if (attempt != null && exit.reset(line).matches()) {
        exits.put(attempt, Integer.parseInt(exit.group(1)));
        attempt = null;
      }
    }
    return exits;
  }
}
