package io.livegate.cli.local;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.livegate.cli.CliRun;
import io.livegate.core.deploy.Execution;
import io.livegate.core.deploy.ExecutionStatus;
import io.livegate.core.flow.FlowState;
import io.livegate.core.testing.FlowPath;
import io.livegate.scan.testing.TestRepo;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Three merges of a stacks repository (a local catalog of units, a catalog stack nested in the live
 * stack, a value that feeds a unit's input), deployed with real terraform: the generated units are
 * planned, voted and applied; a changed value redeploys exactly the unit it feeds; a removed {@code
 * unit} block destroys its unit through the gate, from the base checkout. The terraform runner
 * passes no {@code inputs}, so the catalog's {@code main.tf} reads the value from the {@code
 * terragrunt.values.hcl} that generating the unit wrote, as terragrunt would feed it.
 */
@Timeout(value = 20, unit = TimeUnit.MINUTES)
@Tag("terraform")
class LocalDeployStackUnitsTest {
  private static final String NETWORK = "live/prod/.terragrunt-stack/network";
  private static final String CACHE = "live/prod/.terragrunt-stack/cache";
  private static final String APP = "live/prod/.terragrunt-stack/service/.terragrunt-stack/app";

  @TempDir static Path dir;
  private static HttpStateBackend states;
  private static Path stateDirectory;
  private static TestRepo repo;
  private static final Map<Integer, CliRun> deploys = new TreeMap<>();
  private static final Map<Integer, Map<String, List<String>>> inputs = new TreeMap<>();
  private static Recorded recorded;

  @BeforeAll
  static void deployTheStackThenChangeAValueThenRemoveAUnit() {
    states = HttpStateBackend.in(dir.resolve("states"));
    stateDirectory = dir.resolve("state");
    repo = TestRepo.create(dir.resolve("live-repo"));
    repo.write("README.md", "stacks\n");
    repo.commit("empty");
    for (String unit : List.of("network", "cache", "app")) {
      repo.write(
              "catalog/units/" + unit + "/terragrunt.hcl",
              unit.equals("app")
                  ? "dependency \"network\" {\n  config_path = \"../../../network\"\n}\n\n"
                      + "inputs = {\n  size = values.size\n}\n"
                  : "inputs = {\n  name = values.name\n}\n")
          .write("catalog/units/" + unit + "/main.tf", catalogModule(unit));
    }
    repo.write(
        "catalog/stacks/service/terragrunt.stack.hcl",
        "unit \"app\" {\n"
            + "  source = \"${get_repo_root()}/catalog/units/app\"\n"
            + "  path   = \"app\"\n"
            + "  values = {\n    size = values.size\n  }\n"
            + "}\n");
    repo.write("live/prod/terragrunt.stack.hcl", liveStack("small", true));
    repo.write(".gitignore", ".terraform/\n.terraform.lock.hcl\n.terragrunt-stack/\n");
    repo.commit("the prod stack: network, cache and the service stack");
    deploy(1);
    repo.write("live/prod/terragrunt.stack.hcl", liveStack("large", true));
    repo.commit("a large app");
    deploy(2);
    repo.write("live/prod/terragrunt.stack.hcl", liveStack("large", false));
    repo.commit("retire the cache");
    deploy(3);
    recorded = Recorded.in(stateDirectory);
  }

  private static void deploy(int deployment) {
    deploys.put(
        deployment, CliRun.autoApprovedDeploy(repo.root(), stateDirectory, "--parallelism", "2"));
    Map<String, List<String>> applied = new TreeMap<>();
    for (String unit : List.of("network", "cache", "app")) {
      applied.put(unit, stateInputs(unit));
    }
    inputs.put(deployment, applied);
  }

  @Test
  void everyDeploymentSucceeds() {
    deploys.forEach(
        (deployment, run) -> assertThat(run.exitCode()).as(deployment + ": " + run).isZero());
  }

  @Test
  void theFirstMergePlansVotesAndAppliesEveryGeneratedUnitTheNestedOneAfterItsDependency() {
    assertThat(units(1)).containsExactly(CACHE, NETWORK, APP);
    for (Execution execution : executions(1)) {
      assertThat(execution.status()).as(execution.unit()).isEqualTo(ExecutionStatus.SUCCEEDED);
      assertThat(execution.decision()).as(execution.unit()).isEqualTo("approved");
      FlowPath.requireComplete(recorded.events(execution), FlowState.SUCCEEDED);
    }
    assertThat(execution(1, APP).startedAt()).isAfterOrEqualTo(execution(1, NETWORK).finishedAt());
    assertThat(inputs.get(1))
        .containsEntry("network", List.of("prod-network"))
        .containsEntry("cache", List.of("prod-cache"))
        .containsEntry("app", List.of("small"));
  }

  @Test
  void aChangedValueRedeploysExactlyTheUnitItFeeds() {
    assertThat(units(2)).containsExactly(APP);
    assertThat(execution(2, APP).status()).isEqualTo(ExecutionStatus.SUCCEEDED);
    assertThat(inputs.get(2))
        .containsEntry("network", List.of("prod-network"))
        .containsEntry("cache", List.of("prod-cache"))
        .containsEntry("app", List.of("large"));
  }

  @Test
  void aRemovedUnitBlockDestroysItsUnitThroughTheGateFromTheBaseCheckout() {
    assertThat(units(3)).containsExactly(CACHE);
    Execution destroy = execution(3, CACHE);
    assertThat(destroy.destroy()).isTrue();
    assertThat(destroy.status()).isEqualTo(ExecutionStatus.SUCCEEDED);
    assertThat(destroy.decision()).isEqualTo("approved");
    assertThat(destroy.planSummary().destroyed()).containsExactly("terraform_data.cache");
    FlowPath.requireComplete(recorded.events(destroy), FlowState.SUCCEEDED);
    assertThat(inputs.get(3))
        .containsEntry("network", List.of("prod-network"))
        .containsEntry("cache", List.of())
        .containsEntry("app", List.of("large"));
    assertThat(deploys.get(3).out()).contains("[" + CACHE + "] destroyed");
  }

  /**
   * Each command writes the generated units into its own copy of the checkout (what it writes is
   * StackGeneratorTest's): the inputs above show that the applies read them. The checkout itself
   * never gets them, so no later scan finds them there, and no unit's apply leaves anything in it
   * but its state.
   */
  @Test
  void theGeneratedUnitsAreWrittenIntoEachCommandsCopyAndNeverIntoTheCheckout() {
    assertThat(repo.root().resolve("live/prod/.terragrunt-stack")).doesNotExist();
    assertThat(inputs.get(1)).containsEntry("app", List.of("small"));
  }

  private static String liveStack(String size, boolean withCache) {
    return "locals {\n  env = \"prod\"\n}\n\n"
        + unitBlock("network")
        + (withCache ? unitBlock("cache") : "")
        + "stack \"service\" {\n"
        + "  source = \"${get_repo_root()}/catalog/stacks/service\"\n"
        + "  path   = \"service\"\n"
        + "  values = {\n    size = \""
        + size
        + "\"\n  }\n"
        + "}\n";
  }

  private static String unitBlock(String unit) {
    return "unit \""
        + unit
        + "\" {\n"
        + "  source = \"${get_repo_root()}/catalog/units/"
        + unit
        + "\"\n"
        + "  path   = \""
        + unit
        + "\"\n"
        + "  values = {\n    name = \"${local.env}-"
        + unit
        + "\"\n  }\n"
        + "}\n\n";
  }

  /**
   * A catalog unit's module: its state in a remote backend (each catalog unit is generated once),
   * and a resource whose input is the value its stack gave it, read from the values file.
   */
  private static String catalogModule(String unit) {
    String value = unit.equals("app") ? "size" : "name";
    return states.backend(unit)
        + "resource \"terraform_data\" \""
        + unit
        + "\" {\n  input = regex(\"(?m)^"
        + value
        + " *= *\\\"([^\\\"]*)\\\"\", file(\"${path.module}/terragrunt.values.hcl\"))[0]\n}\n";
  }

  private static String stateFile(String unit) {
    return states.stateFile(unit).toString();
  }

  /** The inputs of the managed resources in a unit's state file, as terraform wrote them. */
  private static List<String> stateInputs(String unit) {
    Path state = Path.of(stateFile(unit));
    if (!Files.exists(state)) {
      return List.of();
    }
    try {
      JsonNode json = new ObjectMapper().readTree(Files.readString(state));
      List<String> values = new java.util.ArrayList<>();
      for (JsonNode resource : json.path("resources")) {
        if (resource.path("mode").asText().equals("managed")) {
          for (JsonNode instance : resource.path("instances")) {
            // terraform_data keeps its input as a dynamic value: {"value": ..., "type": ...}
            values.add(instance.path("attributes").path("input").path("value").asText());
          }
        }
      }
      return values;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static List<Execution> executions(long deployment) {
    return recorded.executions().stream()
        .filter(execution -> execution.deploymentId() == deployment)
        .toList();
  }

  private static List<String> units(long deployment) {
    return executions(deployment).stream().map(Execution::unit).sorted().toList();
  }

  private static Execution execution(long deployment, String unit) {
    return executions(deployment).stream()
        .filter(execution -> execution.unit().equals(unit))
        .findFirst()
        .orElseThrow(() -> new AssertionError("no execution of " + unit + " in " + deployment));
  }
}
