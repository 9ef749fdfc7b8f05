package io.livegate.tests.aws;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.livegate.aws.AwsSettings;
import io.livegate.core.deploy.Execution;
import io.livegate.core.deploy.ExecutionStatus;
import io.livegate.core.vote.Vote;
import io.livegate.process.PlanTimeSpy;
import io.livegate.process.SandboxUserLock;
import io.livegate.process.SetprivSandbox;
import io.livegate.scan.ScanCommand;
import io.livegate.scan.config.AccountsFile;
import io.livegate.scan.testing.TestRepo;
import io.livegate.statemachine.RuntimeContract;
import io.livegate.tasks.TaskWiring;
import io.livegate.tests.moto.MotoServer;
import io.livegate.tests.scenarios.LiveRepo;
import io.livegate.tests.scenarios.LiveRepos;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.services.secretsmanager.SecretsManagerClient;

/**
 * Code of a merged change that runs at plan time in the AWS tasks, where terraform runs as the
 * image's unprivileged user ({@link SetprivSandbox}) with only the account role's session: in
 * terra-run's Plan, in create-deploy-stack's plan scan and in the scheduled drift task, it cannot
 * reach what the task's Java holds. The harness plays the container in this JVM, which runs as root
 * here, as the task's Java does in the image, so setpriv can drop to the user. The plan scan and
 * drift are wired from the task's environment by {@link TaskWiring}, with the task role's
 * credentials from a stand-in of the ECS agent's endpoint, as in a container.
 */
@Timeout(value = 20, unit = TimeUnit.MINUTES)
@Tag("moto")
@Tag("terraform")
@ExtendWith(SandboxUserLock.class)
class AwsPlanTimeCodeTest {
  @RegisterExtension static final MotoServer MOTO = new MotoServer();

  private static final int USER = SetprivSandbox.IMAGE_USER;
  private static final String CONTAINER_TOKEN = "container-authorization-value";
  private static final String GITHUB_TOKEN = "ghs-drift-token-value";

  @TempDir Path dir;

  private MotoDeployment flow;
  private HttpServer standIn;
  // the ECS agent's credentials endpoint: the task role's keys, at a secret path
  private final String credentialsPath = "/v2/credentials/" + UUID.randomUUID();
  private final AtomicInteger credentialsToTheJava = new AtomicInteger();
  private final AtomicInteger credentialsToOthers = new AtomicInteger();
  private String standInUrl;

  @BeforeEach
  void resetMotoAndStartTheStandIns() throws IOException {
    MOTO.reset();
    // the tasks' workspace (/tmp/livegate) is 0755, as directories made by the task are
    Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-xr-x"));
    standIn = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    standIn.createContext(
        "/",
        exchange -> {
          boolean known = exchange.getRequestURI().getPath().equals(credentialsPath);
          boolean authorized =
              CONTAINER_TOKEN.equals(exchange.getRequestHeaders().getFirst("Authorization"));
          if (known && !authorized) {
            credentialsToOthers.incrementAndGet();
          }
          if (known && authorized) {
            credentialsToTheJava.incrementAndGet();
          }
          respond(
              exchange,
              known && authorized ? 200 : 404,
              known && authorized
                  ? "{\"AccessKeyId\":\"ASIATASKROLE\",\"SecretAccessKey\":\"task-role-secret\","
                      + "\"Token\":\"task-role-session\",\"Expiration\":\"2099-01-01T00:00:00Z\"}"
                  : "not found");
        });
    // GitHub's API for the drift report: no issue open yet, so one is opened
    standIn.createContext(
        "/repos/",
        exchange ->
            respond(
                exchange,
                exchange.getRequestMethod().equals("POST") ? 201 : 200,
                exchange.getRequestMethod().equals("GET") ? "[]" : "{\"number\":5}"));
    standIn.start();
    standInUrl = "http://127.0.0.1:" + standIn.getAddress().getPort();
  }

  @AfterEach
  void close() {
    if (flow != null) {
      flow.close();
    }
    standIn.stop(0);
    System.clearProperty("aws.containerCredentialsFullUri");
    System.clearProperty("aws.containerAuthorizationToken");
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
    Path otherPlan = anotherUnitsPlan(dir.resolve("terra-run/plans"));
    PlanTimeSpy spy = spy(otherPlan);
    LiveRepo repo = mergedSpy(dir.resolve("live"), Files.readString(dir.resolve("spy/spy.tf")));
    Map<String, String> task = new HashMap<>(spy.environment());
    task.put("LIVEGATE_TASK_TOKEN", "task-token-value");
    task.put("LIVEGATE_DB_PASSWORD", "metadb-password-value");
    task.put("AWS_CONTAINER_CREDENTIALS_FULL_URI", standInUrl + credentialsPath);
    task.put("AWS_CONTAINER_AUTHORIZATION_TOKEN", CONTAINER_TOKEN);
    flow = flow(repo, task);

    flow.deploy();
    flow.drive(execution -> Vote.Choice.APPROVE);

    assertReachedNothing(spy, dir.resolve("terra-run/home"), otherPlan);
    assertThat(flow.executions())
        .extracting(Execution::status)
        .as("the spy is no real provider: the plan failed and nothing was applied")
        .containsExactly(ExecutionStatus.FAILED);
  }

  @Test
  void aPlanTimeProviderInCreateDeployStacksPlanScanReachesNoneOfTheTasksCredentials()
      throws Exception {
    Path otherPlan = anotherUnitsPlan(dir.resolve("workspace/plans"));
    PlanTimeSpy spy = spy(otherPlan);
    LiveRepo repo = mergedSpy(dir.resolve("live"), Files.readString(dir.resolve("spy/spy.tf")));
    Map<String, String> task = task(spy, repo);
    task.put(RuntimeContract.Tasks.SCAN, "plan");
    StringWriter log = new StringWriter();

    assertThatThrownBy(
            () ->
                TaskWiring.fromEnvironment(task, new PrintWriter(log, true))
                    .planScan()
                    .run(
                        ScanCommand.builder(
                                repo.root(), AccountsFile.parse("accounts", repo.accounts()))
                            .base(repo.base())
                            .head(repo.head())
                            .parallelism(1)
                            .build()))
        .as("the spy is no real provider: the scan fails")
        .hasMessageContaining("app/a");

    assertReachedNothing(spy, dir.resolve("workspace/home"), otherPlan);
  }

  @Test
  void aPlanTimeProviderInTheDriftTaskReachesNoneOfTheTasksCredentialsNorItsGitHubToken()
      throws Exception {
    Path otherPlan = anotherUnitsPlan(dir.resolve("workspace/plans"));
    PlanTimeSpy spy = spy(otherPlan);
    LiveRepo repo = mergedSpy(dir.resolve("live"), Files.readString(dir.resolve("spy/spy.tf")));
    Map<String, String> task = task(spy, repo);
    try (SecretsManagerClient secrets = MOTO.client(SecretsManagerClient.builder())) {
      task.put(
          RuntimeContract.GitHub.TOKEN_SECRET,
          secrets.createSecret(r -> r.name("livegate/github").secretString(GITHUB_TOKEN)).arn());
    }
    task.put(RuntimeContract.GitHub.API_URL, standInUrl);
    StringWriter log = new StringWriter();

    int exit =
        TaskWiring.fromEnvironment(task, new PrintWriter(log, true))
            .drift()
            .run("acme/live", "main");

    assertThat(exit).as("app/a could not be planned:\n" + log).isEqualTo(1);
    assertThat(log.toString())
        .as("the task's Java read the token and reported")
        .contains("drift issue on acme/live: created");
    assertThat(credentialsToTheJava).as("the task's Java used the task role").hasPositiveValue();
    assertReachedNothing(spy, dir.resolve("workspace/home"), otherPlan);
    assertThat(spy.log()).doesNotContain(GITHUB_TOKEN);
  }

  /**
   * The environment of a create-deploy-stack or drift task whose task role's credentials come from
   * the ECS agent's endpoint (the stand-in), as in a container: no AWS keys in it.
   */
  private Map<String, String> task(PlanTimeSpy spy, LiveRepo repo) {
    Map<String, String> task = new HashMap<>(spy.environment());
    Map<String, String> wiring = MOTO.wiringEnvironment();
    task.put("AWS_REGION", wiring.get("AWS_REGION"));
    task.put(AwsSettings.ENDPOINT, wiring.get(AwsSettings.ENDPOINT));
    task.put("AWS_CONTAINER_CREDENTIALS_FULL_URI", standInUrl + credentialsPath);
    task.put("AWS_CONTAINER_AUTHORIZATION_TOKEN", CONTAINER_TOKEN);
    // the SDK reads the container credentials' settings from the process; these stand in for them
    System.setProperty("aws.containerCredentialsFullUri", standInUrl + credentialsPath);
    System.setProperty("aws.containerAuthorizationToken", CONTAINER_TOKEN);
    task.put("LIVEGATE_TASK_TOKEN", "task-token-value");
    task.put("LIVEGATE_DB_PASSWORD", "metadb-password-value");
    task.put(RuntimeContract.Tasks.REPO_URL, repo.root().toString());
    task.put(RuntimeContract.Tasks.WORKSPACE, dir.resolve("workspace").toString());
    task.put(RuntimeContract.Tasks.ACCOUNTS, repo.accounts());
    task.put(RuntimeContract.Engine.RUNNER, "terraform");
    return task;
  }

  /**
   * Another unit's approved plan in the task's plans directory, owner-only as terra-run makes it.
   */
  private static Path anotherUnitsPlan(Path plans) throws IOException {
    Path otherPlan = Files.createDirectories(plans).resolve("d1-other.tfplan");
    Files.writeString(otherPlan, "the approved plan");
    Files.setPosixFilePermissions(otherPlan, PosixFilePermissions.fromString("rw-------"));
    return otherPlan;
  }

  /** The spy, with its attempts on what the task holds, in a mirror its user owns. */
  private PlanTimeSpy spy(Path otherPlan) throws IOException {
    long java = ProcessHandle.current().pid();
    Map<String, String> attempts = new LinkedHashMap<>();
    attempts.put("environment", "env | sort");
    attempts.put("read the task's Java environment", "tr '\\0' '\\n' < /proc/" + java + "/environ");
    attempts.put("read the task's Java memory map", "head -3 /proc/" + java + "/maps");
    attempts.put("read livegate's settings from the environment", "env | grep '^LIVEGATE'");
    // terraform's own AWS_CONTAINER_* variables name livegate's loopback endpoint of the account
    // role's sessions (RoleSessions), which the command may use; the task's own must not reach it
    attempts.put(
        "read the task's container credentials variables",
        "env | grep -F -e '" + credentialsPath + "' -e '" + CONTAINER_TOKEN + "'");
    attempts.put(
        "call the task's credentials",
        "curl -sS --fail-with-body -m 5"
            + " -H \"Authorization: $AWS_CONTAINER_AUTHORIZATION_TOKEN\" \"${"
            + "AWS_CONTAINER_CREDENTIALS_FULL_URI:-"
            + standInUrl
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
    attempts.put(
        "read the file livegate reads this command's output from",
        "f=$(readlink /proc/$PPID/fd/1) && echo \"terraform writes to $f\" && ls \"$f\"");
    // Not attempted: logging in to the metadb. The harness's metadb is the tests' embedded
    // PostgreSQL, which trusts local logins; on AWS it is Aurora, which wants the password from
    // the metadb secret, and the attempts above show the code reaches neither that secret (no
    // credentials) nor the task's environment where the connection settings are.
    Path spyDir = Files.createDirectories(dir.resolve("spy"));
    PlanTimeSpy spy = PlanTimeSpy.install(spyDir, spyDir, attempts);
    giveToTheUser(spyDir);
    return spy;
  }

  private void assertReachedNothing(PlanTimeSpy spy, Path home, Path otherPlan) throws IOException {
    System.out.println("what the plan-time provider saw:\n" + spy.log());
    Map<String, Integer> exits = spy.exits();
    assertThat(exits).as("the spy ran at plan time, as uid " + USER).containsKey("environment");
    assertThat(spy.lines()).contains("HOME=" + home);
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
        .doesNotContain(CONTAINER_TOKEN)
        .doesNotContain(credentialsPath)
        .doesNotContain("ASIATASKROLE")
        .doesNotContain("task-role-secret")
        .contains("InvalidToken");
    assertThat(credentialsToOthers)
        .as("the task role's credentials were never handed out without the container's token")
        .hasValue(0);
    assertThat(Files.readString(otherPlan)).isEqualTo("the approved plan");
  }

  private static void respond(HttpExchange exchange, int status, String body) throws IOException {
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    exchange.sendResponseHeaders(status, bytes.length);
    exchange.getResponseBody().write(bytes);
    exchange.close();
  }

  private MotoDeployment flow(LiveRepo repo, Map<String, String> task) {
    return MotoDeployment.asTheTasksRunTerraform(MOTO, dir, repo, task);
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
  static void giveToTheUser(Path spyDir) throws IOException {
    try (Stream<Path> paths = Files.walk(spyDir)) {
      for (Path path : paths.toList()) {
        Files.setAttribute(path, "unix:uid", USER, LinkOption.NOFOLLOW_LINKS);
        Files.setAttribute(path, "unix:gid", USER, LinkOption.NOFOLLOW_LINKS);
      }
    }
  }
}
