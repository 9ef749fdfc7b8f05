package io.livegate.scan;

import static io.livegate.scan.testing.ReferenceScenario.dependency;
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
 * Files outside every unit change the units that include or read them, directly or through another
 * file, and nothing else.
 *
 * <p>The live repository: {@code root.hcl} (included by every unit but {@code tools/linter}) reads
 * the nearest {@code account.hcl}; each region's units read the nearest {@code env.hcl}, which
 * reads {@code region.hcl} beside it; the vpcs source the local module {@code modules//vpc}; the
 * apps depend on their vpc, pass its outputs (unknown at scan time) as inputs, and read {@code
 * common/tags.json} with {@code file()}.
 */
class ChangesOutsideUnitsTest {
  private static final String ROOT_INCLUDE =
      "include \"root\" {\n  path = find_in_parent_folders(\"root.hcl\")\n}\n";
  private static final String READ_ENV =
      "locals {\n  env = read_terragrunt_config(find_in_parent_folders(\"env.hcl\"))\n}\n";

  @TempDir Path dir;
  private TestRepo repo;
  private String base;

  @BeforeEach
  void createRepo() {
    repo = TestRepo.create(dir);
    repo.write(
        "root.hcl",
        "locals {\n"
            + "  account = read_terragrunt_config(find_in_parent_folders(\"account.hcl\"))\n"
            + "}\n");
    repo.write("common/tags.json", "{\"team\": \"platform\"}\n");
    repo.write("modules/vpc/main.tf", "variable \"cidr\" {}\n");
    repo.write("modules/README.md", "# modules\n");
    repo.write("unrelated.hcl", "locals {}\n");
    for (String region : new String[] {"dev/eu", "dev/us", "prod/eu"}) {
      String account = region.substring(0, region.indexOf('/'));
      repo.write(account + "/account.hcl", "locals {\n  id = \"" + account + "\"\n}\n");
      repo.write(
          region + "/env.hcl",
          "locals {\n  region = read_terragrunt_config(\"region.hcl\").locals.name\n}\n");
      repo.write(region + "/region.hcl", "locals {\n  name = \"" + region + "\"\n}\n");
      unit(
          region + "/vpc",
          ROOT_INCLUDE + READ_ENV + "terraform {\n  source = \"../../../modules//vpc\"\n}\n");
      unit(
          region + "/app",
          ROOT_INCLUDE
              + READ_ENV
              + dependency("vpc", "../vpc")
              + "inputs = {\n"
              + "  vpc_id = dependency.vpc.outputs.vpc_id\n"
              + "  tags = jsondecode(file(\"${get_repo_root()}/common/tags.json\"))\n}\n");
    }
    unit("tools/linter", "inputs = {\n  level = \"strict\"\n}\n");
    base = repo.commit("live repository");
  }

  @AfterEach
  void closeRepo() {
    repo.close();
  }

  private void unit(String id, String config) {
    repo.write(id + "/terragrunt.hcl", config);
    repo.write(id + "/README.md", "# " + id + "\n");
  }

  private DeployStack scanAfter(String message) {
    return graphScan(repo, base, repo.commit(message));
  }

  @Test
  void editingEnvHclChangesExactlyTheUnitsThatReadIt() {
    repo.touch("dev/eu/env.hcl");

    DeployStack stack = scanAfter("change dev/eu env");

    assertThat(units(stack)).containsExactly("dev/eu/vpc", "dev/eu/app");
    Reason readsEnv = Reason.readsChangedFile("dev/eu/env.hcl", "read_terragrunt_config");
    assertThat(execution(stack, "dev/eu/vpc").reasons()).containsExactly(readsEnv);
    assertThat(execution(stack, "dev/eu/app").reasons()).containsExactly(readsEnv);
    assertThat(stack.deleted()).isEmpty();
  }

  @Test
  void editingAFileThatAReadFileReadsChangesTheUnitsThatReadTheOuterFile() {
    repo.touch("prod/eu/region.hcl");

    DeployStack stack = scanAfter("change prod/eu region");

    assertThat(units(stack)).containsExactly("prod/eu/vpc", "prod/eu/app");
    assertThat(execution(stack, "prod/eu/vpc").reasons())
        .containsExactly(Reason.readsChangedFile("prod/eu/region.hcl", "read_terragrunt_config"));
  }

  @Test
  void editingRootHclChangesEveryUnitThatIncludesItAndNoOther() {
    repo.touch("root.hcl");

    DeployStack stack = scanAfter("change root");

    assertThat(units(stack))
        .containsExactly(
            "dev/eu/vpc", "dev/us/vpc", "prod/eu/vpc", "dev/eu/app", "dev/us/app", "prod/eu/app");
    assertThat(execution(stack, "dev/us/app").reasons())
        .containsExactly(Reason.readsChangedFile("root.hcl", "include"));
  }

  @Test
  void editingAFileThatAnIncludedFileReadsChangesTheUnitsItIsReadFor() {
    repo.touch("dev/account.hcl");

    DeployStack stack = scanAfter("change the dev account");

    assertThat(units(stack))
        .containsExactly("dev/eu/vpc", "dev/us/vpc", "dev/eu/app", "dev/us/app");
    assertThat(execution(stack, "dev/eu/vpc").reasons())
        .containsExactly(Reason.readsChangedFile("dev/account.hcl", "read_terragrunt_config"));
  }

  @Test
  void editingAFileReadWithFileFunctionChangesTheUnitsThatReadIt() {
    repo.write("common/tags.json", "{\"team\": \"networking\"}\n");

    DeployStack stack = scanAfter("change tags");

    assertThat(units(stack)).containsExactly("dev/eu/app", "dev/us/app", "prod/eu/app");
    assertThat(execution(stack, "prod/eu/app").reasons())
        .containsExactly(Reason.readsChangedFile("common/tags.json", "file"));
  }

  @Test
  void changeUnderALocalModuleChangesTheUnitsThatSourceItAndTheirDependents() {
    repo.touch("modules/vpc/main.tf");

    DeployStack stack = scanAfter("change the vpc module");

    assertThat(units(stack))
        .containsExactly(
            "dev/eu/vpc", "dev/us/vpc", "prod/eu/vpc", "dev/eu/app", "dev/us/app", "prod/eu/app");
    assertThat(execution(stack, "dev/eu/vpc").reasons())
        .containsExactly(Reason.readsChangedFile("modules/vpc/main.tf", "terraform.source"));
    assertThat(execution(stack, "dev/eu/app").reasons())
        .containsExactly(Reason.dependsOn("dev/eu/vpc"));
  }

  @Test
  void editingAnHclFileThatNothingReadsChangesNothing() {
    repo.touch("unrelated.hcl");
    repo.write("dev/eu/unused.hcl", "locals {}\n");

    DeployStack stack = scanAfter("change unread files");

    assertThat(stack.executions()).isEmpty();
    assertThat(stack.deleted()).isEmpty();
  }

  @Test
  void fileBesideAUnitWhoseTerraformRunsInALocalSourceCountsOnlyWhenItMatchesTheFilePattern() {
    repo.touch("dev/eu/vpc/README.md");

    DeployStack stack = scanAfter("change the vpc's docs");

    assertThat(stack.executions()).isEmpty();
  }

  @Test
  void anyFileOfTheLocalSourceThatTerragruntCopiesChangesTheUnitsThatSourceIt() {
    // terragrunt copies a local source's directory whole (v1.1.3 internal/getter/filecopy.go),
    // the part before '//', so its README is in terraform's working directory too.
    repo.touch("modules/README.md");

    DeployStack stack = scanAfter("change the modules' docs");

    assertThat(units(stack))
        .containsExactlyInAnyOrder(
            "dev/eu/vpc", "dev/us/vpc", "prod/eu/vpc", "dev/eu/app", "dev/us/app", "prod/eu/app");
    assertThat(execution(stack, "dev/eu/vpc").reasons())
        .containsExactly(Reason.readsChangedFile("modules/README.md", "terraform.source"));
  }

  @Test
  void anyFileOfAUnitThatRunsTerraformInItsOwnDirectoryChangesIt() {
    repo.touch("dev/eu/app/README.md");

    DeployStack stack = scanAfter("change the app's docs");

    assertThat(units(stack)).containsExactly("dev/eu/app");
    assertThat(execution(stack, "dev/eu/app").reasons())
        .containsExactly(Reason.changedFile("dev/eu/app/README.md"));
  }

  @Test
  void fileThatAUnitBothIncludesAndReadsIsReportedAsIncludedInEveryRun() {
    repo.write(
        "dev/eu/app/terragrunt.hcl",
        ROOT_INCLUDE
            + "locals {\n  root = read_terragrunt_config(find_in_parent_folders(\"root.hcl\"))\n}\n");
    base = repo.commit("app reads root.hcl twice");
    repo.touch("root.hcl");

    DeployStack stack = scanAfter("change root");

    assertThat(execution(stack, "dev/eu/app").reasons())
        .containsExactly(Reason.readsChangedFile("root.hcl", "include"));
  }
}
