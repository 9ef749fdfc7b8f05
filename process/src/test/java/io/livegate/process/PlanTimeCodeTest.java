package io.livegate.process;

import static org.assertj.core.api.Assertions.assertThat;

import io.livegate.core.runner.RunnerKind;
import io.livegate.core.scan.testing.TestRepo;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The code being deployed runs at plan time, before anyone voted: a provider from a filesystem
 * mirror that is really a script tries to take what would let it approve itself.
 */
@Tag("terraform")
class PlanTimeCodeTest {
  private static final String UNIT = "app";

  @TempDir Path dir;

  @Test
  void aPlanTimeProviderSeesNoLivegateSecretInItsEnvironment() throws Exception {
    TestRepo repo = TestRepo.create(dir.resolve("live"));
    repo.write(UNIT + "/main.tf", "resource \"terraform_data\" \"app\" {}\n");
    PlanTimeSpy spy =
        PlanTimeSpy.install(dir, repo.root().resolve(UNIT), Map.of("environment", "env | sort"));
    Map<String, String> environment = new HashMap<>(spy.environment());
    environment.put("LIVEGATE_WEBHOOK_SECRET", "webhook-secret-value");
    environment.put("LIVEGATE_GITHUB_TOKEN", "github-token-value");
    environment.put("LIVEGATE_TASK_TOKEN", "task-token-value");
    environment.put("LIVEGATE_DB_PASSWORD", "metadb-password-value");
    environment.put("TF_IN_AUTOMATION", "1");
    TerraRun terraRun =
        new TerraRun(
            new ProcessCommandRunner(),
            RunnerKind.TERRAFORM,
            repo.root(),
            Files.createDirectories(dir.resolve("plans")),
            environment);

    TerraRun.Step<TerraRun.Plan> plan =
        terraRun.plan(
            UNIT, "d1-app", RunnerKind.TERRAFORM.planCommands(UNIT, null, List.of()), null);

    System.out.println("what the plan-time provider saw:\n" + spy.log());
    assertThat(plan.error()).as("the spy is no real provider").isNotNull();
    assertThat(spy.lines()).as("the spy ran at plan time").contains("== environment");
    assertThat(spy.lines()).contains("TF_IN_AUTOMATION=1");
    assertThat(spy.log())
        .doesNotContain("LIVEGATE_")
        .doesNotContain("webhook-secret-value")
        .doesNotContain("github-token-value")
        .doesNotContain("task-token-value")
        .doesNotContain("metadb-password-value");
  }
}
