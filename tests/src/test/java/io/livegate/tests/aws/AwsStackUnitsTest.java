package io.livegate.tests.aws;

import static org.assertj.core.api.Assertions.assertThat;

import io.livegate.core.deploy.Execution;
import io.livegate.core.deploy.ExecutionStatus;
import io.livegate.core.vote.Vote;
import io.livegate.scan.testing.TestRepo;
import io.livegate.tests.moto.MotoServer;
import io.livegate.tests.scenarios.LiveRepo;
import io.livegate.tests.scenarios.LiveRepos;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * A unit that a {@code terragrunt.stack.hcl} generates, deployed through the AWS flow on moto: the
 * terra-run task's checkout of the merge never holds the generated directory, so the task writes it
 * (with its {@code terragrunt.values.hcl}) before terraform plans it, and again before apply.
 */
@Timeout(value = 20, unit = TimeUnit.MINUTES)
@Tag("moto")
@Tag("terraform")
class AwsStackUnitsTest {
  @RegisterExtension static final MotoServer MOTO = new MotoServer();

  private static final String WEB = "app/prod/.terragrunt-stack/web";

  @TempDir Path dir;
  private MotoDeployment flow;

  @BeforeEach
  void resetMoto() {
    MOTO.reset();
  }

  @AfterEach
  void close() {
    if (flow != null) {
      flow.close();
    }
  }

  @Test
  void terraRunWritesTheGeneratedUnitThenPlansAndAppliesItWithItsValue() throws IOException {
    flow =
        new MotoDeployment(
            MOTO,
            dir,
            stackRepo(dir.resolve("live")),
            MotoDeployment.Settings.of(Duration.ofMinutes(10)));

    flow.deploy();
    flow.drive(execution -> Vote.Choice.APPROVE);

    assertThat(flow.executions()).extracting(Execution::unit).containsExactly(WEB);
    assertThat(flow.executions())
        .extracting(Execution::status)
        .containsExactly(ExecutionStatus.SUCCEEDED);
    assertThat(flow.executions().get(0).planSummary().add()).isEqualTo(1);
    List<Path> states;
    try (Stream<Path> files = Files.walk(flow.workspace())) {
      states = files.filter(file -> file.endsWith(Path.of(WEB, "terraform.tfstate"))).toList();
    }
    assertThat(states).hasSize(1);
    assertThat(Files.readString(states.get(0))).contains("\"value\": \"small\"");
  }

  /** A stack of one web unit from a local catalog, whose size comes from the stack's values. */
  private static LiveRepo stackRepo(Path root) {
    try (TestRepo repo = TestRepo.create(root)) {
      repo.write("README.md", "apps\n");
      String base = repo.commit("empty");
      repo.write("catalog/units/web/terragrunt.hcl", "inputs = {\n  size = values.size\n}\n")
          .write(
              "catalog/units/web/main.tf",
              "resource \"terraform_data\" \"web\" {\n"
                  + "  input = regex(\"(?m)^size *= *\\\"([^\\\"]*)\\\"\","
                  + " file(\"${path.module}/terragrunt.values.hcl\"))[0]\n}\n")
          .write(
              "app/prod/terragrunt.stack.hcl",
              "unit \"web\" {\n  source = \"../../catalog/units/web\"\n  path   = \"web\"\n"
                  + "  values = {\n    size = \"small\"\n  }\n}\n")
          .write(".gitignore", ".terraform/\n.terraform.lock.hcl\n.terragrunt-stack/\n");
      String head = repo.commit("a web unit from the catalog");
      return new LiveRepo(root, base, head, LiveRepos.APPS_ACCOUNTS);
    }
  }
}
