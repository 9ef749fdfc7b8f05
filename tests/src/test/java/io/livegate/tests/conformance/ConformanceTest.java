package io.livegate.tests.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import io.livegate.tests.aws.MotoDeployment;
import io.livegate.tests.local.LocalDeployment;
import io.livegate.tests.moto.MotoServer;
import io.livegate.tests.scenarios.Outcome;
import io.livegate.tests.scenarios.Scenario;
import io.livegate.tests.scenarios.Scenarios;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The local executor and the ASL describe the same deploy flow: every scenario of {@link Scenarios}
 * runs through the cli's local executor and through moto's Step Functions running the real ASL,
 * each on its own copy of the live repository with real terraform, and both must end with the same
 * deployment status and the same status for every execution, rollbacks included.
 */
@Timeout(value = 6, unit = TimeUnit.MINUTES)
@Tag("moto")
@Tag("terraform")
class ConformanceTest {
  @RegisterExtension static final MotoServer MOTO = new MotoServer();

  @TempDir Path dir;

  static List<Scenario> scenarios() {
    return Scenarios.all();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("scenarios")
  void theLocalExecutorAndStepFunctionsEndTheScenarioAlike(Scenario scenario) {
    Outcome local;
    try (LocalDeployment deployment =
        new LocalDeployment(
            dir.resolve("local-state"),
            scenario.repo().apply(dir.resolve("local-live")),
            scenario.voteTimeout(),
            scenario.skipEmpty())) {
      local = deployment.run(scenario.votes());
    }
    MOTO.reset();
    Outcome aws;
    Path awsDir = dir.resolve("aws");
    try (MotoDeployment deployment =
        new MotoDeployment(
            MOTO,
            awsDir,
            scenario.repo().apply(awsDir.resolve("live")),
            new MotoDeployment.Settings(scenario.voteTimeout(), 3600, scenario.skipEmpty()))) {
      aws = deployment.run(scenario.votes());
    }

    assertThat(aws).as("Step Functions on moto against the local executor").isEqualTo(local);
    assertThat(local).as("the scenario's outcome").isEqualTo(scenario.expected());
  }
}
