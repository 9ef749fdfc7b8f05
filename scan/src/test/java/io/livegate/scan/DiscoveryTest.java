package io.livegate.scan;

import static io.livegate.scan.testing.ReferenceScenario.dependency;
import static io.livegate.scan.testing.Scans.allUnits;
import static io.livegate.scan.testing.Scans.execution;
import static io.livegate.scan.testing.Scans.graphScan;
import static io.livegate.scan.testing.Scans.units;
import static org.assertj.core.api.Assertions.assertThat;

import io.livegate.core.stack.DeployStack;
import io.livegate.core.stack.Reason;
import io.livegate.scan.testing.TestRepo;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Units found as terragrunt finds them: hidden directories are searched, only .git, .terraform and
 * .terragrunt-cache are skipped, and a terragrunt.hcl is a unit unless another config includes it,
 * at the repository root too.
 */
class DiscoveryTest {
  private static final String MAIN_TF = "resource \"terraform_data\" \"this\" {}\n";

  @TempDir Path dir;
  private TestRepo repo;

  @BeforeEach
  void createRepo() {
    repo = TestRepo.create(dir);
  }

  @AfterEach
  void closeRepo() {
    repo.close();
  }

  private void unit(String id, String config) {
    repo.write(id + "/terragrunt.hcl", config);
    repo.write(id + "/main.tf", MAIN_TF);
  }

  private void hiddenSettingsUnitAndTerragruntScratchDirectories() {
    unit("live/.settings/dns", "");
    unit("live/app", dependency("dns", "../.settings/dns"));
    unit("live/app/.terragrunt-cache/abc123/app", "");
    unit("live/app/.terraform/modules/app", "");
  }

  @Test
  void unitInAHiddenDirectoryIsAUnitAndADependencyIntoItIsAnEdge() {
    hiddenSettingsUnitAndTerragruntScratchDirectories();

    DeployStack stack = allUnits(repo, repo.commit("hidden unit"));

    assertThat(units(stack)).containsExactly("live/.settings/dns", "live/app");
    assertThat(execution(stack, "live/app").dependsOn()).containsExactly("live/.settings/dns");
  }

  @Test
  void changeInsideAHiddenUnitDeploysItAndItsDependents() {
    hiddenSettingsUnitAndTerragruntScratchDirectories();
    String base = repo.commit("hidden unit");
    repo.touch("live/.settings/dns/main.tf");

    DeployStack stack = graphScan(repo, base, repo.commit("change dns"));

    assertThat(units(stack)).containsExactly("live/.settings/dns", "live/app");
    assertThat(execution(stack, "live/.settings/dns").reasons())
        .containsExactly(Reason.changedFile("live/.settings/dns/main.tf"));
  }

  @Test
  void rootConfigThatNobodyIncludesIsTheUnitDotAndCanBeDependedOn() {
    repo.write("terragrunt.hcl", "inputs = {\n  name = \"org\"\n}\n");
    repo.write("main.tf", MAIN_TF);
    unit("team/app", dependency("org", "../.."));
    String base = repo.commit("root unit");
    repo.touch("main.tf");

    DeployStack stack = graphScan(repo, base, repo.commit("change the root unit"));

    assertThat(units(stack)).containsExactly(".", "team/app");
    assertThat(execution(stack, ".").reasons()).containsExactly(Reason.changedFile("main.tf"));
    assertThat(execution(stack, "team/app").dependsOn()).containsExactly(".");
    assertThat(stack.warnings()).isEmpty();
  }

  @Test
  void rootConfigThatUnitsIncludeIsAParentConfigWithAWarningAndItsChangeChangesTheIncluders() {
    repo.write("terragrunt.hcl", "locals {\n  org = \"acme\"\n}\n");
    String include = "include \"root\" {\n  path = find_in_parent_folders()\n}\n";
    unit("dev/vpc", include);
    unit("dev/app", include + dependency("vpc", "../vpc"));
    unit("tools/lint", "");
    String base = repo.commit("classic root config");
    repo.touch("terragrunt.hcl");

    DeployStack stack = graphScan(repo, base, repo.commit("change the parent config"));

    assertThat(units(stack)).containsExactly("dev/vpc", "dev/app");
    assertThat(execution(stack, "dev/vpc").reasons())
        .containsExactly(Reason.readsChangedFile("terragrunt.hcl", "include"));
    assertThat(stack.deleted()).isEmpty();
    assertThat(stack.warnings())
        .containsExactly(
            "terragrunt.hcl is included by dev/app, dev/vpc, so it is a parent config, not a unit");
  }

  @Test
  void nestedTerragruntHclThatAUnitIncludesIsAParentConfigNotAUnit() {
    unit("base/data/policy", "locals {\n  name = \"policy\"\n}\n");
    unit(
        "prod/policy",
        "include \"policy\" {\n"
            + "  path = \"${get_repo_root()}/base/data/policy/terragrunt.hcl\"\n"
            + "}\n");

    DeployStack stack = allUnits(repo, repo.commit("shared unit config"));

    assertThat(units(stack)).containsExactly("prod/policy");
    assertThat(stack.warnings())
        .containsExactly(
            "base/data/policy/terragrunt.hcl is included by prod/policy, so it is a parent"
                + " config, not a unit");
  }
}
