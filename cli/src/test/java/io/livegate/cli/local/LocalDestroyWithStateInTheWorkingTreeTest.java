package io.livegate.cli.local;

import static org.assertj.core.api.Assertions.assertThat;

import io.livegate.cli.CliRun;
import io.livegate.core.deploy.DeploymentStatus;
import io.livegate.core.deploy.Execution;
import io.livegate.core.deploy.ExecutionStatus;
import io.livegate.process.TerraformState;
import io.livegate.scan.testing.TestRepo;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A deleted unit whose state file is in the working tree (terraform's default local backend): its
 * destroy plans from a checkout of the base commit, which does not hold that file, so the destroy
 * fails before planning instead of destroying nothing and reporting success.
 */
@Timeout(value = 20, unit = TimeUnit.MINUTES)
@Tag("terraform")
class LocalDestroyWithStateInTheWorkingTreeTest {
  @TempDir Path dir;

  @Test
  void theDestroyFailsNamingTheStateFileAndTheResourceStays() {
    TestRepo repo = TestRepo.create(dir.resolve("live"));
    repo.write("README.md", "apps\n");
    repo.write(".gitignore", ".terraform/\n.terraform.lock.hcl\nterraform.tfstate*\n");
    repo.commit("empty");
    repo.write("app/a/terragrunt.hcl", "inputs = {}\n")
        .write("app/a/main.tf", "resource \"terraform_data\" \"a\" {\n  input = \"a\"\n}\n");
    repo.commit("a");
    Path state = dir.resolve("state");
    CliRun created = deploy(repo, state);
    // As git rm -r does: the tracked files go, the ignored state file and .terraform stay.
    repo.delete("app/a/main.tf");
    repo.delete("app/a/terragrunt.hcl");
    repo.commit("retire a");

    CliRun deleted = deploy(repo, state);

    assertThat(created.exitCode()).as(created.toString()).isZero();
    assertThat(deleted.exitCode()).as(deleted.toString()).isEqualTo(1);
    assertThat(deleted.out())
        .as(deleted.toString())
        .contains("the state of the deleted unit app/a is in")
        .contains("nothing was destroyed");
    Recorded recorded = Recorded.in(state);
    Execution destroy =
        recorded.executions().stream()
            .filter(execution -> execution.deploymentId() == 2)
            .findFirst()
            .orElseThrow();
    assertThat(destroy.destroy()).isTrue();
    assertThat(destroy.status()).isEqualTo(ExecutionStatus.FAILED);
    assertThat(recorded.deployments().get(1).status()).isEqualTo(DeploymentStatus.FAILED);
    assertThat(TerraformState.resources(repo.root().resolve("app/a")))
        .containsOnlyKeys("terraform_data.a");
  }

  private static CliRun deploy(TestRepo repo, Path state) {
    return CliRun.autoApprovedDeploy(repo.root(), state);
  }
}
