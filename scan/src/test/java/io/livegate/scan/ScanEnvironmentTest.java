package io.livegate.scan;

import static io.livegate.scan.testing.ReferenceScenario.dependency;
import static io.livegate.scan.testing.Scans.allUnits;
import static io.livegate.scan.testing.Scans.execution;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.livegate.scan.terragrunt.InvalidTerragruntConfig;
import io.livegate.scan.testing.TestRepo;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code get_env()} sees the environment of the scan command and nothing else. */
class ScanEnvironmentTest {
  @TempDir Path dir;
  private TestRepo repo;
  private String head;

  @BeforeEach
  void createRepo() {
    repo = TestRepo.create(dir);
    repo.write("blue/vpc/terragrunt.hcl", "");
    repo.write("green/vpc/terragrunt.hcl", "");
    repo.write(
        "blue/app/terragrunt.hcl",
        "\n" + dependency("vpc", "${get_repo_root()}/${get_env(\"NETWORK\", \"blue\")}/vpc"));
    head = repo.commit("apps");
  }

  @AfterEach
  void closeRepo() {
    repo.close();
  }

  @Test
  void environmentOfTheScanCommandDecidesWhatGetEnvReturns() {
    assertThat(execution(allUnits(repo, head), "blue/app").dependsOn()).containsExactly("blue/vpc");
    assertThat(execution(allUnits(repo, head, Map.of("NETWORK", "green")), "blue/app").dependsOn())
        .containsExactly("green/vpc");
  }

  @Test
  void processEnvironmentIsNotVisibleToConfigs() {
    assertThat(System.getenv("PATH")).isNotNull();
    repo.write("blue/app/terragrunt.hcl", "\n" + dependency("vpc", "${get_env(\"PATH\")}"));
    String withPath = repo.commit("reads PATH");

    assertThatThrownBy(() -> allUnits(repo, withPath, Map.of("NETWORK", "green")))
        .isInstanceOf(InvalidTerragruntConfig.class)
        .hasMessageContaining("blue/app/terragrunt.hcl:3")
        .hasMessageContaining("get_env(): PATH is not set and has no default");
  }
}
