package io.livegate.scan;

import static io.livegate.scan.testing.ReferenceScenario.dependency;
import static io.livegate.scan.testing.Scans.allUnits;
import static io.livegate.scan.testing.Scans.execution;
import static io.livegate.scan.testing.Scans.graphScan;
import static io.livegate.scan.testing.Scans.units;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.livegate.core.stack.DeployStack;
import io.livegate.core.stack.Reason;
import io.livegate.scan.terragrunt.InvalidTerragruntConfig;
import io.livegate.scan.testing.TestRepo;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Dependencies that units get from the files they include, merged the way terragrunt merges. */
class IncludesTest {
  private static final String ROOT_INCLUDE =
      "include \"root\" {\n  path = find_in_parent_folders(\"root.hcl\")\n}\n";

  @TempDir Path dir;
  private TestRepo repo;

  @BeforeEach
  void createRepo() {
    repo = TestRepo.create(dir);
    repo.write("root.hcl", "locals {\n  org = \"acme\"\n}\n");
  }

  @AfterEach
  void closeRepo() {
    repo.close();
  }

  private static String envcommon(String file) {
    return "include \"envcommon\" {\n"
        + "  path = \"${dirname(find_in_parent_folders(\"root.hcl\"))}/_envcommon/"
        + file
        + "\"\n}\n";
  }

  private void mysqlInTwoEnvironments() {
    repo.write(
        "_envcommon/mysql.hcl",
        "terraform {\n  source = \"tfr:///terraform-aws-modules/rds/aws?version=6.0.0\"\n}\n\n"
            + dependency("vpc", "${get_terragrunt_dir()}/../vpc"));
    for (String env : new String[] {"dev", "prod"}) {
      repo.unit(env + "/vpc", ROOT_INCLUDE);
      repo.unit(env + "/mysql", ROOT_INCLUDE + envcommon("mysql.hcl"));
    }
  }

  @Test
  void dependencyDeclaredOnlyInEnvcommonCountsForEveryIncludingUnit() {
    mysqlInTwoEnvironments();
    String base = repo.commit("mysql in dev and prod");
    repo.touch("dev/vpc/main.tf").touch("prod/vpc/main.tf");

    DeployStack stack = graphScan(repo, base, repo.commit("change both vpcs"));

    assertThat(units(stack)).containsExactly("dev/vpc", "prod/vpc", "dev/mysql", "prod/mysql");
    assertThat(execution(stack, "dev/mysql").dependsOn()).containsExactly("dev/vpc");
    assertThat(execution(stack, "prod/mysql").dependsOn()).containsExactly("prod/vpc");
    assertThat(execution(stack, "prod/mysql").layer()).isEqualTo(1);
    assertThat(execution(stack, "prod/mysql").reasons())
        .containsExactly(Reason.dependsOn("prod/vpc"));
  }

  @Test
  void changeInOneEnvironmentsVpcLeavesTheOtherEnvironmentAlone() {
    mysqlInTwoEnvironments();
    String base = repo.commit("mysql in dev and prod");
    repo.touch("prod/vpc/main.tf");

    assertThat(units(graphScan(repo, base, repo.commit("change prod vpc"))))
        .containsExactly("prod/vpc", "prod/mysql");
  }

  @Test
  void relativeConfigPathInAnIncludedFileIsReadFromTheIncludingUnitsDirectory() {
    repo.write("_envcommon/app.hcl", dependency("vpc", "../vpc"));
    repo.unit("dev/vpc", "");
    repo.unit("dev/app", envcommon("app.hcl"));
    repo.unit("prod/eu/vpc", "");
    repo.unit("prod/eu/app", envcommon("app.hcl"));

    DeployStack stack = allUnits(repo, repo.commit("apps"));

    assertThat(execution(stack, "dev/app").dependsOn()).containsExactly("dev/vpc");
    assertThat(execution(stack, "prod/eu/app").dependsOn()).containsExactly("prod/eu/vpc");
  }

  @Test
  void bareIncludeFindsTerragruntHclInTheNearestFolderAboveTheUnit() {
    repo.write(
        "terragrunt.hcl",
        dependency("network", "${get_parent_terragrunt_dir()}/shared/network")
            + "inputs = {\n  name = path_relative_to_include()\n}\n");
    repo.unit("shared/network", "");
    repo.unit("dev/app", "include {\n  path = find_in_parent_folders()\n}\n");
    String base = repo.commit("bare include");
    repo.touch("shared/network/main.tf");

    DeployStack stack = graphScan(repo, base, repo.commit("change network"));

    // The root terragrunt.hcl is a unit too (terragrunt 1.1.3 discovery lists every
    // terragrunt.hcl), and on its own its dependency path starts from the root.
    assertThat(units(stack)).containsExactly("shared/network", ".", "dev/app");
    assertThat(execution(stack, "dev/app").dependsOn()).containsExactly("shared/network");
    assertThat(execution(stack, ".").dependsOn()).containsExactly("shared/network");
  }

  @Test
  void exposedIncludeLocalsAreEvaluatedForTheIncludingUnitAndCanBuildAConfigPath() {
    repo.write(
        "root.hcl",
        "locals {\n  env = basename(dirname(get_terragrunt_dir()))\n"
            + "  network = \"shared/${local.env}-network\"\n}\n");
    repo.unit("shared/dev-network", "");
    repo.unit("shared/prod-network", "");
    String exposed =
        "include \"root\" {\n  path = find_in_parent_folders(\"root.hcl\")\n  expose = true\n}\n";
    String network = dependency("network", "${get_repo_root()}/${include.root.locals.network}");
    repo.unit("dev/app", exposed + network);
    repo.unit("prod/app", exposed + network);

    DeployStack stack = allUnits(repo, repo.commit("exposed include"));

    assertThat(execution(stack, "dev/app").dependsOn()).containsExactly("shared/dev-network");
    assertThat(execution(stack, "prod/app").dependsOn()).containsExactly("shared/prod-network");
  }

  @Test
  void readingAnIncludeThatIsNotExposedIsAnErrorNamingTheFileAndLine() {
    repo.unit("vpc", "");
    repo.unit("app", ROOT_INCLUDE + dependency("vpc", "../${include.root.locals.org}"));
    String head = repo.commit("unexposed include");

    assertThatThrownBy(() -> allUnits(repo, head))
        .isInstanceOf(InvalidTerragruntConfig.class)
        .hasMessageContaining("app/terragrunt.hcl:5")
        .hasMessageContaining("include \"root\" is not exposed");
  }

  @Test
  void noMergeIncludeContributesNoDependencies() {
    repo.write("_envcommon/app.hcl", dependency("vpc", "../vpc"));
    repo.unit("dev/vpc", "");
    repo.unit(
        "dev/app",
        "include \"envcommon\" {\n  path = \"../../_envcommon/app.hcl\"\n"
            + "  merge_strategy = \"no_merge\"\n}\n");
    String base = repo.commit("no_merge include");
    repo.touch("dev/vpc/main.tf");

    DeployStack stack = graphScan(repo, base, repo.commit("change vpc"));

    assertThat(units(stack)).containsExactly("dev/vpc");
  }

  @Test
  void unitsOwnDependencyOverridesTheIncludedOneWithTheSameLabel() {
    repo.write("_envcommon/app.hcl", dependency("vpc", "../vpc") + dependency("db", "../db"));
    repo.unit("dev/vpc", "");
    repo.unit("dev/db", "");
    repo.unit("shared/vpc", "");
    repo.unit("dev/app", envcommon("app.hcl") + dependency("vpc", "../../shared/vpc"));
    String base = repo.commit("override");
    repo.touch("dev/vpc/main.tf");

    DeployStack stack = graphScan(repo, base, repo.commit("change dev vpc"));

    assertThat(units(stack)).containsExactly("dev/vpc");
    assertThat(execution(allUnits(repo, "HEAD"), "dev/app").dependsOn())
        .containsExactly("dev/db", "shared/vpc");
  }

  @Test
  void unitsOwnDependenciesBlockReplacesTheIncludedOneUnderShallowMerge() {
    repo.write("_envcommon/app.hcl", "dependencies {\n  paths = [\"../included\"]\n}\n");
    repo.unit("dev/included", "");
    repo.unit("dev/own", "");
    repo.unit("dev/app", envcommon("app.hcl") + "dependencies {\n  paths = [\"../own\"]\n}\n");

    DeployStack stack = allUnits(repo, repo.commit("shallow"));

    assertThat(execution(stack, "dev/app").dependsOn()).containsExactly("dev/own");
  }

  @Test
  void deepMergeKeepsBothTheIncludedAndTheUnitsDependenciesPaths() {
    repo.write("_envcommon/app.hcl", "dependencies {\n  paths = [\"../included\"]\n}\n");
    repo.unit("dev/included", "");
    repo.unit("dev/own", "");
    repo.unit(
        "dev/app",
        "include \"envcommon\" {\n  path = \"../../_envcommon/app.hcl\"\n"
            + "  merge_strategy = \"deep\"\n}\n"
            + "dependencies {\n  paths = [\"../own\"]\n}\n");

    DeployStack stack = allUnits(repo, repo.commit("deep"));

    assertThat(execution(stack, "dev/app").dependsOn()).containsExactly("dev/included", "dev/own");
  }

  @Test
  void includedFileThatIncludesAnotherFileIsAnErrorNamingIt() {
    repo.write("_envcommon/app.hcl", "\n" + ROOT_INCLUDE + dependency("vpc", "../vpc"));
    repo.unit("dev/vpc", "");
    repo.unit("dev/app", envcommon("app.hcl"));
    String head = repo.commit("nested include");

    assertThatThrownBy(() -> allUnits(repo, head))
        .isInstanceOf(InvalidTerragruntConfig.class)
        .hasMessageContaining("_envcommon/app.hcl:2")
        .hasMessageContaining("included by dev/app/terragrunt.hcl")
        .hasMessageContaining("one level of includes");
  }

  @Test
  void includeOfAFileThatDoesNotExistIsAnErrorNamingTheIncludingFile() {
    repo.unit("dev/app", "\n" + envcommon("missing.hcl"));
    String head = repo.commit("missing include");

    assertThatThrownBy(() -> allUnits(repo, head))
        .isInstanceOf(InvalidTerragruntConfig.class)
        .hasMessageContaining("dev/app/terragrunt.hcl:3")
        .hasMessageContaining("_envcommon/missing.hcl' does not exist");
  }
}
