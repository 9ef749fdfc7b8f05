package io.livegate.tests.aws;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.livegate.aws.AssumedRoleRunner;
import io.livegate.aws.RoleSessions;
import io.livegate.core.runner.Command;
import io.livegate.core.runner.CommandResult;
import io.livegate.core.runner.CommandRunner;
import io.livegate.core.runner.RunnerArgv;
import io.livegate.process.ProcessCommandRunner;
import io.livegate.tests.moto.MotoServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import software.amazon.awssdk.auth.credentials.AwsSessionCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.services.sts.StsClient;

/**
 * The account role's sessions, assumed with moto's STS and served on the loopback endpoint, are
 * what terragrunt runs with, renewed when one runs out during a long apply.
 */
@Tag("moto")
class AssumedRoleRunnerTest {
  @RegisterExtension static final MotoServer MOTO = new MotoServer();

  private static final String PLAN_ROLE = "arn:aws:iam::111111111111:role/livegate-plan";
  private static final String APPLY_ROLE = "arn:aws:iam::111111111111:role/livegate-apply";
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final HttpClient HTTP = HttpClient.newHttpClient();

  private final List<Command> ran = new ArrayList<>();

  /** A clock the test moves, as the hours of a long apply pass. */
  private static final class SimulatedClock extends Clock {
    private Instant now = Instant.now();

    void advance(Duration by) {
      now = now.plus(by);
    }

    @Override
    public Instant instant() {
      return now;
    }

    @Override
    public ZoneId getZone() {
      return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
      throw new UnsupportedOperationException("UTC only");
    }
  }

  /** What the AWS SDKs' container-credentials provider does: GET the endpoint with its token. */
  private static HttpResponse<String> fetch(Map<String, String> environment, String token) {
    try {
      return HTTP.send(
          HttpRequest.newBuilder(URI.create(environment.get(RoleSessions.FULL_URI)))
              .header("Authorization", token)
              .GET()
              .build(),
          HttpResponse.BodyHandlers.ofString());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  private static JsonNode credentials(Map<String, String> environment) {
    HttpResponse<String> response =
        fetch(environment, environment.get(RoleSessions.AUTHORIZATION_TOKEN));
    assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
    try {
      return JSON.readTree(response.body());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Whom AWS takes the credentials for: the role's session as STS (moto) knows it. */
  private static String callerWith(JsonNode credentials) {
    try (StsClient sts =
        StsClient.builder()
            .endpointOverride(MOTO.endpoint())
            .region(MOTO.region())
            .credentialsProvider(
                StaticCredentialsProvider.create(
                    AwsSessionCredentials.create(
                        credentials.path("AccessKeyId").asText(),
                        credentials.path("SecretAccessKey").asText(),
                        credentials.path("Token").asText())))
            .build()) {
      return sts.getCallerIdentity().arn();
    }
  }

  @Test
  void terragruntRunsWithTheRolesSessionEndpointInsteadOfAssumingTheRoleItself() {
    try (StsClient sts = MOTO.client(StsClient.builder());
        RoleSessions sessions =
            new RoleSessions(sts, "livegate-terra-run", Duration.ofHours(1), Clock.systemUTC())) {
      List<String> plan = RunnerArgv.TERRAGRUNT.planCommands("app/a", PLAN_ROLE, List.of()).get(0);
      List<JsonNode> served = new ArrayList<>();
      CommandRunner terragrunt =
          command -> {
            ran.add(command);
            served.add(credentials(command.environment()));
            assertThat(fetch(command.environment(), "guessed").statusCode()).isEqualTo(403);
            return new CommandResult(0, "", false);
          };

      new AssumedRoleRunner(terragrunt, sessions, "eu-west-1")
          .run(new Command(plan, Path.of("/tmp"), Map.of("TF_IN_AUTOMATION", "1"), Duration.ZERO));

      Command command = ran.get(0);
      assertThat(plan).contains(AssumedRoleRunner.ROLE_FLAG, PLAN_ROLE);
      assertThat(command.argv())
          .doesNotContain(AssumedRoleRunner.ROLE_FLAG, PLAN_ROLE)
          .containsSubsequence("terragrunt", "run", "--working-dir", "app/a", "--", "plan");
      assertThat(command.environment())
          .containsEntry("TF_IN_AUTOMATION", "1")
          .containsEntry("AWS_REGION", "eu-west-1")
          .containsKeys(RoleSessions.FULL_URI, RoleSessions.AUTHORIZATION_TOKEN)
          .doesNotContainKeys("AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN");
      assertThat(command.environment().get(RoleSessions.FULL_URI)).startsWith("http://127.0.0.1:");
      assertThat(served.get(0).path("AccessKeyId").asText())
          .as("a session's key, not the caller's")
          .isNotEqualTo(MOTO.wiringEnvironment().get("AWS_ACCESS_KEY_ID"));
      assertThat(callerWith(served.get(0)))
          .isEqualTo("arn:aws:sts::111111111111:assumed-role/livegate-plan/livegate-terra-run");
    }
  }

  @Test
  void aSessionThatExpiresDuringALongApplyIsRenewedAndTheApplyFinishes() {
    SimulatedClock clock = new SimulatedClock();
    // The shortest session STS grants; the apply below runs for three of them.
    Duration session = Duration.ofMinutes(15);
    try (StsClient sts = MOTO.client(StsClient.builder());
        RoleSessions sessions = new RoleSessions(sts, "livegate-terra-run", session, clock)) {
      List<JsonNode> used = new ArrayList<>();
      // The apply, as terraform's AWS SDK runs it: credentials from the endpoint, asked again
      // when the ones it holds have expired, for every AWS call of the apply's 45 minutes.
      CommandRunner longApply =
          command -> {
            JsonNode held = credentials(command.environment());
            for (int minute = 0; minute < 45; minute += 5) {
              if (!Instant.parse(held.path("Expiration").asText()).isAfter(clock.instant())) {
                held = credentials(command.environment());
              }
              assertThat(Instant.parse(held.path("Expiration").asText()))
                  .as("minute %d", minute)
                  .isAfter(clock.instant());
              assertThat(callerWith(held))
                  .endsWith("assumed-role/livegate-apply/livegate-terra-run");
              used.add(held);
              clock.advance(Duration.ofMinutes(5));
            }
            return new CommandResult(0, "Apply complete!", false);
          };
      List<String> apply = RunnerArgv.TERRAGRUNT.applyCommands("app/a", APPLY_ROLE).get(0);

      CommandResult result =
          new AssumedRoleRunner(longApply, sessions, "eu-west-1")
              .run(new Command(apply, Path.of("/tmp"), Map.of(), Duration.ofHours(2)));

      assertThat(result.exitCode()).isZero();
      assertThat(used.stream().map(held -> held.path("AccessKeyId").asText()).distinct().count())
          .as("one session per 15 minutes of a 45-minute apply, or more")
          .isGreaterThanOrEqualTo(3);
    }
  }

  @Test
  void aRealSdkReadsTheRolesSessionFromTheEndpoint() {
    try (StsClient sts = MOTO.client(StsClient.builder());
        RoleSessions sessions =
            new RoleSessions(sts, "livegate-terra-run", Duration.ofHours(1), Clock.systemUTC())) {
      // botocore's credential chain, in a process of its own under the runner's allow-listed
      // environment: it finds the endpoint through the two variables, as terraform's SDK does.
      List<String> argv =
          List.of(
              "python3",
              "-c",
              "import botocore.session; c = botocore.session.get_session().get_credentials();"
                  + " print(c.method, c.get_frozen_credentials().access_key)",
              AssumedRoleRunner.ROLE_FLAG,
              PLAN_ROLE);

      CommandResult result =
          new AssumedRoleRunner(new ProcessCommandRunner(), sessions, "eu-west-1")
              .run(new Command(argv, Path.of("/tmp"), Map.of(), Duration.ofMinutes(1)));

      assertThat(result.exitCode()).as(result.output()).isZero();
      assertThat(result.stdout().strip())
          .startsWith("container-role ")
          .isNotEqualTo("container-role " + MOTO.wiringEnvironment().get("AWS_ACCESS_KEY_ID"));
    }
  }

  @Test
  void aCommandThatNamesNoRoleGetsNoCredentials() {
    try (StsClient sts = MOTO.client(StsClient.builder());
        RoleSessions sessions =
            new RoleSessions(sts, "livegate-terra-run", Duration.ofHours(1), Clock.systemUTC())) {
      List<String> plan = RunnerArgv.TERRAFORM.planCommands("app/a", null, List.of()).get(0);

      new AssumedRoleRunner(
              command -> {
                ran.add(command);
                return new CommandResult(0, "", false);
              },
              sessions,
              "eu-west-1")
          .run(new Command(plan, Path.of("/tmp"), Map.of(), Duration.ZERO));

      assertThat(ran.get(0).argv()).isEqualTo(plan);
      assertThat(ran.get(0).environment()).isEmpty();
    }
  }
}
