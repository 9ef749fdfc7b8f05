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

/**
 * Includes and dependency switches as terragrunt reads them: two include blocks with one label are
 * both merged, path_relative_to_include() in an include's own path is ".", relative file reads in
 * an included file start from that file's directory, and a disabled dependency is no edge.
 *
 * <p>The live repository is laid out as Gruntwork's reference architecture: {@code root.hcl} reads
 * the nearest {@code account.hcl}, {@code region.hcl} and {@code env.hcl}; {@code
 * _envcommon/app.hcl} picks the app's database from {@code _envcommon/app-db.hcl}, which it reads
 * by a path relative to itself.
 */
class IncludeSemanticsTest {
  private static final String ROOT_INCLUDE =
      "include \"root\" {\n  path = find_in_parent_folders(\"root.hcl\")\n}\n";

  @TempDir Path dir;
  private TestRepo repo;

  @BeforeEach
  void createRepo() {
    repo = TestRepo.create(dir);
    repo.write(
        "root.hcl",
        "locals {\n"
            + "  account = read_terragrunt_config(find_in_parent_folders(\"account.hcl\"))\n"
            + "  region  = read_terragrunt_config(find_in_parent_folders(\"region.hcl\"))\n"
            + "  env     = read_terragrunt_config(find_in_parent_folders(\"env.hcl\"))\n"
            + "}\n");
    repo.write("prod/account.hcl", "locals {\n  account_id = \"111111111111\"\n}\n");
    repo.write("prod/us-east-1/region.hcl", "locals {\n  aws_region = \"us-east-1\"\n}\n");
    repo.write("prod/us-east-1/prod/env.hcl", "locals {\n  env = \"prod\"\n}\n");
  }

  @AfterEach
  void closeRepo() {
    repo.close();
  }

  private static String envcommon(String label, String file) {
    return "include \""
        + label
        + "\" {\n  path = \"${dirname(find_in_parent_folders(\"root.hcl\"))}/_envcommon/"
        + file
        + "\"\n  expose = true\n}\n";
  }

  @Test
  void relativeReadInsideAnIncludedFileStartsFromTheIncludedFilesDirectory() {
    repo.write("_envcommon/app-db.hcl", "locals {\n  name = \"db\"\n}\n");
    repo.write("prod/us-east-1/prod/app/app-db.hcl", "locals {\n  name = \"cache\"\n}\n");
    repo.write(
        "_envcommon/app.hcl",
        "locals {\n  db = read_terragrunt_config(\"app-db.hcl\").locals.name\n}\n"
            + dependency("db", "${get_terragrunt_dir()}/../${local.db}"));
    String env = "prod/us-east-1/prod/";
    repo.unit(env + "db", ROOT_INCLUDE);
    repo.unit(env + "cache", ROOT_INCLUDE);
    repo.unit(env + "app", ROOT_INCLUDE + envcommon("app", "app.hcl"));

    DeployStack stack = allUnits(repo, repo.commit("app on its database"));

    assertThat(execution(stack, env + "app").dependsOn()).containsExactly(env + "db");
    assertThat(units(stack)).containsExactly(env + "cache", env + "db", env + "app");
  }

  @Test
  void changeToAFileAnIncludedFileReadsChangesTheIncludingUnitOnly() {
    repo.write("_envcommon/app-db.hcl", "locals {\n  name = \"db\"\n}\n");
    repo.write(
        "_envcommon/app.hcl",
        "locals {\n  db = read_terragrunt_config(\"app-db.hcl\").locals.name\n}\n"
            + dependency("db", "${get_terragrunt_dir()}/../${local.db}"));
    String env = "prod/us-east-1/prod/";
    repo.unit(env + "db", ROOT_INCLUDE);
    repo.unit(env + "app", ROOT_INCLUDE + envcommon("app", "app.hcl"));
    String base = repo.commit("app on its database");
    repo.touch("_envcommon/app-db.hcl");

    DeployStack stack = graphScan(repo, base, repo.commit("change the app's db choice"));

    assertThat(units(stack)).containsExactly(env + "app");
    assertThat(execution(stack, env + "app").reasons())
        .containsExactly(
            Reason.readsChangedFile("_envcommon/app-db.hcl", "read_terragrunt_config"));
  }

  @Test
  void twoIncludeBlocksWithOneLabelAreBothMerged() {
    repo.write("_envcommon/network.hcl", dependency("vpc", "../vpc"));
    repo.write("_envcommon/storage.hcl", dependency("bucket", "../bucket"));
    String env = "prod/us-east-1/prod/";
    repo.unit(env + "vpc", ROOT_INCLUDE);
    repo.unit(env + "bucket", ROOT_INCLUDE);
    repo.unit(
        env + "app",
        ROOT_INCLUDE + envcommon("common", "network.hcl") + envcommon("common", "storage.hcl"));

    DeployStack stack = allUnits(repo, repo.commit("two includes labelled common"));

    assertThat(execution(stack, env + "app").dependsOn())
        .containsExactly(env + "bucket", env + "vpc");
  }

  @Test
  void pathRelativeToIncludeInsideAnIncludePathIsDot() {
    repo.write("_envcommon/app.hcl", dependency("vpc", "../vpc"));
    String env = "prod/us-east-1/prod/";
    repo.unit(env + "vpc", ROOT_INCLUDE);
    repo.unit(
        env + "app",
        ROOT_INCLUDE
            + "include \"app\" {\n"
            + "  path = \"${get_repo_root()}/${path_relative_to_include()}/_envcommon/app.hcl\"\n"
            + "}\n");

    DeployStack stack = allUnits(repo, repo.commit("include built from path_relative_to_include"));

    assertThat(execution(stack, env + "app").dependsOn()).containsExactly(env + "vpc");
  }

  @Test
  void disabledDependencyIsNoEdgeAndItsTargetNeedNotExist() {
    String env = "prod/us-east-1/prod/";
    repo.unit(env + "vpc", ROOT_INCLUDE);
    repo.unit(
        env + "app",
        ROOT_INCLUDE
            + "dependency \"vpc\" {\n  config_path = \"../vpc\"\n  enabled = false\n}\n"
            + "dependency \"legacy\" {\n  config_path = \"../gone\"\n  enabled = false\n}\n");

    DeployStack stack = allUnits(repo, repo.commit("dependencies switched off"));

    assertThat(execution(stack, env + "app").dependsOn()).isEmpty();
    assertThat(execution(stack, env + "app").layer()).isZero();
  }

  @Test
  void dependencyThatAnIncludedFileDeclaresCanBeSwitchedOffByTheUnit() {
    repo.write("_envcommon/app.hcl", dependency("vpc", "../vpc"));
    String env = "prod/us-east-1/prod/";
    repo.unit(env + "vpc", ROOT_INCLUDE);
    repo.unit(
        env + "app",
        ROOT_INCLUDE
            + envcommon("app", "app.hcl")
            + "dependency \"vpc\" {\n  config_path = \"../vpc\"\n  enabled = false\n}\n");

    DeployStack stack = allUnits(repo, repo.commit("vpc dependency switched off"));

    assertThat(execution(stack, env + "app").dependsOn()).isEmpty();
  }

  @Test
  void dependencyWhoseEnabledCannotBeWorkedOutIsAnErrorNamingFileAndLine() {
    String env = "prod/us-east-1/prod/";
    repo.unit(env + "vpc", ROOT_INCLUDE);
    repo.unit(
        env + "app",
        ROOT_INCLUDE
            + "dependency \"vpc\" {\n  config_path = \"../vpc\"\n"
            + "  enabled = get_env(\"USE_VPC\")\n}\n");
    String head = repo.commit("dependency switched by the environment");

    assertThatThrownBy(() -> allUnits(repo, head))
        .isInstanceOf(InvalidTerragruntConfig.class)
        .hasMessageStartingWith(
            env + "app/terragrunt.hcl:6: dependency \"vpc\": enabled must be true or false");
  }
}
