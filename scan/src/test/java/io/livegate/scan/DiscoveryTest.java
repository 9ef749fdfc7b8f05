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
 * .terragrunt-cache are skipped, and every terragrunt.hcl is a unit, whether another config
 * includes it or not, at the repository root too.
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

  private void hiddenSettingsUnitAndTerragruntScratchDirectories() {
    repo.unit("live/.settings/dns", "");
    repo.unit("live/app", dependency("dns", "../.settings/dns"));
    repo.unit("live/app/.terragrunt-cache/abc123/app", "");
    repo.unit("live/app/.terraform/modules/app", "");
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
    repo.unit("team/app", dependency("org", "../.."));
    String base = repo.commit("root unit");
    repo.touch("main.tf");

    DeployStack stack = graphScan(repo, base, repo.commit("change the root unit"));

    assertThat(units(stack)).containsExactly(".", "team/app");
    assertThat(execution(stack, ".").reasons()).containsExactly(Reason.changedFile("main.tf"));
    assertThat(execution(stack, "team/app").dependsOn()).containsExactly(".");
    assertThat(stack.warnings()).isEmpty();
  }

  // terragrunt 1.1.3 lists every terragrunt.hcl it walks to as a unit, included or not:
  // internal/discovery/phase_filesystem.go (createComponentFromPath for each config file name) and
  // internal/util/file.go (SkipDirIfIgnorable: only .git, .terraform, .terragrunt-cache are left).

  @Test
  void rootTerragruntHclThatUnitsIncludeIsAUnitTooAndItsChangeChangesItAndItsIncluders() {
    repo.write("terragrunt.hcl", "locals {\n  org = \"acme\"\n}\n");
    String include = "include \"root\" {\n  path = find_in_parent_folders()\n}\n";
    repo.unit("dev/vpc", include);
    repo.unit("dev/app", include + dependency("vpc", "../vpc"));
    String base = repo.commit("classic root terragrunt.hcl");
    repo.touch("terragrunt.hcl");

    DeployStack stack = graphScan(repo, base, repo.commit("change the root config"));

    assertThat(units(stack)).containsExactlyInAnyOrder(".", "dev/app", "dev/vpc");
    assertThat(execution(stack, ".").reasons())
        .containsExactly(Reason.changedFile("terragrunt.hcl"));
    assertThat(execution(stack, "dev/vpc").reasons())
        .containsExactly(Reason.readsChangedFile("terragrunt.hcl", "include"));
    assertThat(stack.warnings()).isEmpty();
  }

  @Test
  void includedUnitWithItsOwnModuleIsAUnitAndItsMainTfChangesItAndTheIncludersThatSourceIt() {
    repo.unit(
        "base/data/policy",
        "terraform {\n  source = get_parent_terragrunt_dir()\n}\n"
            + "locals {\n  name = \"policy\"\n}\n");
    repo.unit(
        "prod/policy",
        "include \"policy\" {\n"
            + "  path = \"${get_repo_root()}/base/data/policy/terragrunt.hcl\"\n"
            + "}\n");
    repo.unit("prod/other", "");
    String base = repo.commit("a unit that another unit includes");
    repo.touch("base/data/policy/main.tf");

    DeployStack stack = graphScan(repo, base, repo.commit("change the included unit's module"));

    assertThat(units(stack)).containsExactlyInAnyOrder("base/data/policy", "prod/policy");
    assertThat(execution(stack, "base/data/policy").reasons())
        .containsExactly(Reason.changedFile("base/data/policy/main.tf"));
    assertThat(execution(stack, "prod/policy").reasons())
        .containsExactly(Reason.readsChangedFile("base/data/policy/main.tf", "terraform.source"));
    assertThat(stack.warnings()).isEmpty();
  }

  @Test
  void aDependencyOnAnIncludedUnitIsAnEdge() {
    repo.unit("shared/dns", "locals {\n  zone = \"example.com\"\n}\n");
    repo.unit(
        "prod/app",
        "include \"dns\" {\n  path = \"../../shared/dns/terragrunt.hcl\"\n}\n"
            + dependency("dns", "../../shared/dns"));

    DeployStack stack = allUnits(repo, repo.commit("depend on an included unit"));

    assertThat(units(stack)).containsExactlyInAnyOrder("prod/app", "shared/dns");
    assertThat(execution(stack, "prod/app").dependsOn()).containsExactly("shared/dns");
  }

  @Test
  void filesOfAUnitAddedInsideAnotherUnitsDirectoryChangeOnlyTheNewUnit() {
    repo.write("terragrunt.hcl", "locals {\n  org = \"acme\"\n}\n");
    repo.unit("team/app", "");
    String base = repo.commit("root unit and an app");
    repo.unit("team/db", "");
    repo.write("team/db/notes.txt", "new\n");

    DeployStack stack = graphScan(repo, base, repo.commit("add a db inside the root unit"));

    assertThat(units(stack)).containsExactly("team/db");
  }
}
