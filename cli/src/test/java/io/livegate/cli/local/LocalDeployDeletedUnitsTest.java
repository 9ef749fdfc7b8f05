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
import jakarta.mail.internet.MimeMessage;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A merge that deletes two units, one depending on the other, after a merge that applied them with
 * real terraform: both are destroyed through plan (from the base commit), vote and apply, the
 * dependent first, and a unit that used to depend on them is applied after. Their state lives
 * outside the working tree, in a remote backend ({@link HttpStateBackend}), so the base checkout
 * finds it.
 */
@Timeout(value = 20, unit = TimeUnit.MINUTES)
@Tag("terraform")
class LocalDeployDeletedUnitsTest {
  private static final String NETWORK = "app/network";
  private static final String SERVICE = "app/service";
  private static final String WEB = "app/web";

  @TempDir static Path dir;
  private static HttpStateBackend states;
  private static CliRun created;
  private static CliRun deleted;
  private static Recorded recorded;
  private static Path stateDirectory;

  @BeforeAll
  static void applyThreeUnitsThenMergeTheDeletionOfTwo() {
    states = HttpStateBackend.in(dir.resolve("states"));
    TestRepo repo = TestRepo.create(dir.resolve("live"));
    repo.write("README.md", "apps\n");
    repo.commit("empty");
    repo.write(NETWORK + "/terragrunt.hcl", "inputs = {}\n")
        .write(NETWORK + "/main.tf", backend(NETWORK) + resource("network", "\"net-1\""));
    repo.write(SERVICE + "/terragrunt.hcl", dependency("network"))
        .write(
            SERVICE + "/main.tf",
            backend(SERVICE)
                + remoteState(NETWORK)
                + resource(
                    "service", "\"svc on ${data.terraform_remote_state.network.outputs.id}\""));
    repo.write(WEB + "/terragrunt.hcl", dependency("network"))
        .write(
            WEB + "/main.tf",
            backend(WEB)
                + remoteState(NETWORK)
                + resource("web", "\"web on ${data.terraform_remote_state.network.outputs.id}\""));
    repo.write(".gitignore", ".terraform/\n.terraform.lock.hcl\n");
    repo.commit("network, service and web");
    stateDirectory = dir.resolve("state");
    created = deploy(repo);
    repo.delete(NETWORK);
    repo.delete(SERVICE);
    repo.write(WEB + "/terragrunt.hcl", "inputs = {}\n")
        .write(WEB + "/main.tf", backend(WEB) + resource("web", "\"web on its own\""));
    repo.commit("retire the network and the service; web stands alone");
    deleted = deploy(repo);
    recorded = Recorded.in(stateDirectory);
  }

  private static CliRun deploy(TestRepo repo) {
    return CliRun.autoApprovedDeploy(repo.root(), stateDirectory, "--parallelism", "2");
  }

  @Test
  void bothDeploymentsSucceed() {
    assertThat(created.exitCode()).as(created.toString()).isZero();
    assertThat(deleted.exitCode()).as(deleted.toString()).isZero();
    assertThat(deleted.out())
        .contains("[" + SERVICE + "] destroyed", "[" + NETWORK + "] destroyed")
        .containsPattern("app/service \\(destroy\\) +succeeded")
        .containsPattern("app/network \\(destroy\\) +succeeded");
  }

  @Test
  void theDeletedUnitsAreDestroyExecutionsThatPassedTheWholeFlowWithAnApprovedVote() {
    for (String unit : List.of(NETWORK, SERVICE)) {
      Execution destroy = destroyOf(unit);
      assertThat(destroy.destroy()).as(unit).isTrue();
      assertThat(destroy.status()).as(unit).isEqualTo(ExecutionStatus.SUCCEEDED);
      assertThat(destroy.decision()).as(unit).isEqualTo("approved");
      assertThat(destroy.planSummary().destroy()).as(unit).isEqualTo(1);
      assertThat(destroy.planSummary().add()).as(unit).isZero();
      assertThat(destroy.planSummary().destroyed())
          .containsExactly("terraform_data." + unit.substring(4));
      FlowPath.requireComplete(recorded.events(destroy), FlowState.SUCCEEDED);
    }
  }

  @Test
  void theDependentIsDestroyedFirstAndTheFormerDependentAppliedAfterItsDependencyIsGone() {
    Execution service = destroyOf(SERVICE);
    Execution network = destroyOf(NETWORK);
    Execution web = second(WEB);
    assertThat(network.startedAt()).isAfterOrEqualTo(service.finishedAt());
    assertThat(web.startedAt()).isAfterOrEqualTo(network.finishedAt());
    assertThat(web.destroy()).isFalse();
  }

  @Test
  void theDestroyedStatesHoldNoResourcesAndTheRemainingUnitItsNewValue() {
    assertThat(stateResources(NETWORK)).isEmpty();
    assertThat(stateResources(SERVICE)).isEmpty();
    assertThat(stateResources(WEB)).containsExactly("terraform_data.web");
  }

  @Test
  void theVoteMailSaysDestroyPlainlyWithTheResourceList() throws Exception {
    String name = destroyOf(SERVICE).name();
    try (Stream<Path> mails = Files.list(stateDirectory.resolve("outbox"))) {
      Path file =
          mails
              .filter(mail -> mail.getFileName().toString().startsWith(name + "--"))
              .findFirst()
              .orElseThrow();
      MimeMessage mail = SentMail.parse(file);
      assertThat(mail.getSubject())
          .isEqualTo("[livegate] approve DESTROYING app/service (default)?");
      assertThat(SentMail.text(mail))
          .contains("Action:  DESTROY: this unit was deleted from the repository")
          .contains(
              "Plan:    0 to add, 0 to change, 1 to destroy\n"
                  + "Changes:\n  terraform_data.service: delete\n"
                  + "Destroys:\n  - terraform_data.service\n");
      assertThat(SentMail.read(file).unit()).isEqualTo(SERVICE);
    }
  }

  private static Execution destroyOf(String unit) {
    Execution execution = second(unit);
    assertThat(execution.destroy()).as(unit + " is destroyed").isTrue();
    return execution;
  }

  private static Execution second(String unit) {
    return recorded.executions().stream()
        .filter(execution -> execution.deploymentId() == 2 && execution.unit().equals(unit))
        .findFirst()
        .orElseThrow(() -> new AssertionError("no execution of " + unit + " in deployment 2"));
  }

  /** The addresses of the managed resources in a unit's state file, as terraform wrote it. */
  private static List<String> stateResources(String unit) {
    try {
      JsonNode state = new ObjectMapper().readTree(Files.readString(Path.of(stateFile(unit))));
      List<String> addresses = new ArrayList<>();
      for (JsonNode resource : state.path("resources")) {
        if (resource.path("mode").asText().equals("managed")) {
          addresses.add(resource.path("type").asText() + "." + resource.path("name").asText());
        }
      }
      return addresses;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static String stateFile(String unit) {
    return states.stateFile(unit).toString();
  }

  private static String backend(String unit) {
    return states.backend(unit);
  }

  private static String resource(String name, String input) {
    return "resource \"terraform_data\" \""
        + name
        + "\" {\n  input = "
        + input
        + "\n}\n\noutput \"id\" {\n  value = terraform_data."
        + name
        + ".output\n}\n";
  }

  private static String dependency(String unit) {
    return "dependency \"" + unit + "\" {\n  config_path = \"../" + unit + "\"\n}\n";
  }

  private static String remoteState(String unit) {
    return "data \"terraform_remote_state\" \""
        + unit.substring(4)
        + "\" {\n"
        + states.remoteStateConfig(unit)
        + "}\n\n";
  }
}
