package io.livegate.tests.aws;

import static org.assertj.core.api.Assertions.assertThat;

import io.livegate.aws.AssumedRoleRunner;
import io.livegate.core.runner.Command;
import io.livegate.core.runner.CommandResult;
import io.livegate.core.runner.RunnerArgv;
import io.livegate.tests.moto.MotoServer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import software.amazon.awssdk.services.sts.StsClient;

/** The account role's session, assumed with moto's STS, is what terragrunt runs with. */
@Tag("moto")
class AssumedRoleRunnerTest {
  @RegisterExtension static final MotoServer MOTO = new MotoServer();

  private static final String PLAN_ROLE = "arn:aws:iam::111111111111:role/livegate-plan";

  private final List<Command> ran = new ArrayList<>();

  private AssumedRoleRunner runner(StsClient sts) {
    return new AssumedRoleRunner(
        command -> {
          ran.add(command);
          return new CommandResult(0, "", false);
        },
        sts,
        "eu-west-1",
        "livegate-terra-run");
  }

  @Test
  void terragruntRunsWithTheRolesSessionInsteadOfAssumingTheRoleItself() {
    try (StsClient sts = MOTO.client(StsClient.builder())) {
      List<String> plan = RunnerArgv.TERRAGRUNT.planCommands("app/a", PLAN_ROLE, List.of()).get(0);

      runner(sts)
          .run(new Command(plan, Path.of("/tmp"), Map.of("TF_IN_AUTOMATION", "1"), Duration.ZERO));

      Command command = ran.get(0);
      assertThat(plan).contains(AssumedRoleRunner.ROLE_FLAG, PLAN_ROLE);
      assertThat(command.argv())
          .doesNotContain(AssumedRoleRunner.ROLE_FLAG, PLAN_ROLE)
          .containsSubsequence("terragrunt", "run", "--working-dir", "app/a", "--", "plan");
      assertThat(command.environment())
          .containsEntry("TF_IN_AUTOMATION", "1")
          .containsEntry("AWS_REGION", "eu-west-1")
          .containsKeys("AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN");
      assertThat(command.environment().get("AWS_ACCESS_KEY_ID"))
          .as("a session's key, not the caller's")
          .isNotEqualTo(MOTO.wiringEnvironment().get("AWS_ACCESS_KEY_ID"));
    }
  }

  @Test
  void aCommandThatNamesNoRoleGetsNoCredentials() {
    try (StsClient sts = MOTO.client(StsClient.builder())) {
      List<String> plan = RunnerArgv.TERRAFORM.planCommands("app/a", null, List.of()).get(0);

      runner(sts).run(new Command(plan, Path.of("/tmp"), Map.of(), Duration.ZERO));

      assertThat(ran.get(0).argv()).isEqualTo(plan);
      assertThat(ran.get(0).environment()).isEmpty();
    }
  }
}
