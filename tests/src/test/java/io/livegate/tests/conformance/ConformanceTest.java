package io.livegate.tests.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.livegate.core.deploy.ExecutionStatus;
import io.livegate.tests.aws.MotoDeployment;
import io.livegate.tests.local.LocalDeployment;
import io.livegate.tests.moto.MotoServer;
import io.livegate.tests.scenarios.LiveRepos;
import io.livegate.tests.scenarios.Outcome;
import io.livegate.tests.scenarios.Scenario;
import io.livegate.tests.scenarios.Scenarios;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
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
@Timeout(value = 20, unit = TimeUnit.MINUTES)
@Tag("moto")
@Tag("terraform")
class ConformanceTest {
  @RegisterExtension static final MotoServer MOTO = new MotoServer();
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path dir;

  static List<Scenario> scenarios() {
    return Scenarios.all();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("scenarios")
  void theLocalExecutorAndStepFunctionsEndTheScenarioAlike(Scenario scenario) {
    Outcome local;
    Path localLive = dir.resolve("local-live");
    try (LocalDeployment deployment =
        new LocalDeployment(
            dir.resolve("local-state"),
            scenario.repo().apply(localLive),
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
    Map<String, List<String>> localStates = stateResources(LiveRepos.states(localLive));
    assertThat(stateResources(LiveRepos.states(awsDir.resolve("live"))))
        .as("the state files kept beside the repository end alike")
        .isEqualTo(localStates);
    local
        .executions()
        .forEach(
            (key, status) -> {
              if (key.endsWith(" (destroy)") && status == ExecutionStatus.SUCCEEDED) {
                String unit = key.substring(0, key.length() - " (destroy)".length());
                assertThat(localStates.get(unit.substring(unit.lastIndexOf('/') + 1)))
                    .as("the state of %s after its destroy", unit)
                    .isEmpty();
              }
            });
  }

  /** Each state file's managed resources, by unit name, for scenarios that keep state aside. */
  private static Map<String, List<String>> stateResources(Path states) {
    Map<String, List<String>> resources = new TreeMap<>();
    if (!Files.isDirectory(states)) {
      return resources;
    }
    try (Stream<Path> files = Files.list(states)) {
      for (Path file : files.filter(f -> f.toString().endsWith(".tfstate")).toList()) {
        List<String> addresses = new ArrayList<>();
        for (JsonNode resource : JSON.readTree(file.toFile()).path("resources")) {
          if (resource.path("mode").asText().equals("managed")) {
            addresses.add(resource.path("type").asText() + "." + resource.path("name").asText());
          }
        }
        String name = file.getFileName().toString();
        resources.put(name.substring(0, name.length() - ".tfstate".length()), addresses);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return resources;
  }
}
