package io.livegate.scan.terragrunt;

import static io.livegate.scan.testing.ReferenceScenario.dependency;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.livegate.scan.testing.InMemorySourceTree;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The terragrunt functions and references that config paths are built from. */
class TerragruntFunctionsTest {
  private final InMemorySourceTree tree = new InMemorySourceTree();

  private UnitConfig read(String unit, Map<String, String> environment) {
    return new TerragruntConfigReader(tree, environment).read(unit);
  }

  private UnitConfig read(String unit) {
    return read(unit, Map.of());
  }

  private static List<String> targets(UnitConfig config) {
    return config.dependencies().stream().map(DependencyDeclaration::target).toList();
  }

  /** The dependency targets of a unit whose config is {@code config}. */
  private List<String> targetsOf(String unit, String config) {
    tree.with(unit + "/terragrunt.hcl", config);
    return targets(read(unit));
  }

  @Test
  void findInParentFoldersWithANameFindsTheNearestFileAboveTheUnit() {
    tree.with("region.hcl", "").with("dev/region.hcl", "");

    assertThat(
            targetsOf(
                "dev/eu/app",
                dependency("x", "${dirname(find_in_parent_folders(\"region.hcl\"))}/vpc")))
        .containsExactly("dev/vpc");
  }

  @Test
  void findInParentFoldersWithoutANameLooksForTerragruntHclAboveTheUnitItself() {
    tree.with("terragrunt.hcl", "");

    assertThat(targetsOf("dev/app", dependency("x", "${find_in_parent_folders()}/../vpc")))
        .containsExactly("vpc");
  }

  @Test
  void findInParentFoldersReturnsItsFallbackWhenNothingIsFound() {
    assertThat(
            targetsOf(
                "dev/app",
                dependency("x", "${find_in_parent_folders(\"nowhere.hcl\", \"../fallback\")}")))
        .containsExactly("dev/fallback");
  }

  @Test
  void findInParentFoldersWithoutAFallbackFailsOnlyWhereItIsNeeded() {
    tree.with(
        "dev/app/terragrunt.hcl",
        "locals {\n  unused = find_in_parent_folders(\"nowhere.hcl\")\n}\n"
            + dependency("x", "${find_in_parent_folders(\"nowhere.hcl\")}"));

    assertThatThrownBy(() -> read("dev/app"))
        .isInstanceOf(InvalidTerragruntConfig.class)
        .hasMessageStartingWith("dev/app/terragrunt.hcl:5: dependency \"x\"")
        .hasMessageContaining("no 'nowhere.hcl' in any folder above dev/app");
  }

  @Test
  void getTerragruntDirIsTheUnitsDirectoryAlsoInAnIncludedFile() {
    tree.with("_envcommon/app.hcl", dependency("vpc", "${get_terragrunt_dir()}/../vpc"));

    assertThat(
            targetsOf(
                "dev/app",
                "include \"envcommon\" {\n  path = \"../../_envcommon/app.hcl\"\n}\n"
                    + dependency("self", "${get_terragrunt_dir()}/../db")))
        .containsExactly("dev/vpc", "dev/db");
  }

  @Test
  void getParentTerragruntDirIsTheDirectoryOfTheIncludedFile() {
    tree.with("infra/root.hcl", dependency("net", "${get_parent_terragrunt_dir()}/network"));

    assertThat(
            targetsOf(
                "infra/dev/app",
                "include \"root\" {\n  path = find_in_parent_folders(\"root.hcl\")\n}\n"))
        .containsExactly("infra/network");
  }

  @Test
  void pathRelativeToIncludeIsTheUnitsPathSeenFromTheIncludedFile() {
    tree.with(
        "root.hcl",
        dependency("mirror", "${get_repo_root()}/mirror/${path_relative_to_include()}"));

    assertThat(
            targetsOf(
                "dev/eu/app",
                "include \"root\" {\n  path = find_in_parent_folders(\"root.hcl\")\n}\n"))
        .containsExactly("mirror/dev/eu/app");
  }

  @Test
  void pathRelativeFromIncludeLeadsFromTheUnitBackToTheIncludedFile() {
    tree.with("infra/root.hcl", dependency("net", "${path_relative_from_include()}/network"));

    assertThat(
            targetsOf(
                "infra/dev/eu/app",
                "include \"root\" {\n  path = find_in_parent_folders(\"root.hcl\")\n}\n"))
        .containsExactly("infra/network");
  }

  @Test
  void includeFunctionsTakeTheLabelOfTheIncludeTheyMean() {
    tree.with("root.hcl", "").with("dev/env.hcl", "");

    assertThat(
            targetsOf(
                "dev/app",
                "include \"root\" {\n  path = find_in_parent_folders(\"root.hcl\")\n}\n"
                    + "include \"env\" {\n  path = find_in_parent_folders(\"env.hcl\")\n}\n"
                    + dependency("a", "${get_parent_terragrunt_dir(\"env\")}/vpc")
                    + dependency(
                        "b", "${get_repo_root()}/${path_relative_to_include(\"root\")}-x")))
        .containsExactly("dev/vpc", "dev/app-x");
  }

  @Test
  void getRepoRootBuildsAnAbsoluteConfigPathThatBecomesARepoRelativeUnitId() {
    assertThat(targetsOf("dev/app", dependency("vpc", "${get_repo_root()}/shared/vpc/")))
        .containsExactly("shared/vpc");
  }

  @Test
  void getEnvReadsTheEnvironmentGivenToTheReader() {
    tree.with("dev/app/terragrunt.hcl", dependency("vpc", "../${get_env(\"VPC_NAME\")}"));

    assertThat(targets(read("dev/app", Map.of("VPC_NAME", "vpc-blue"))))
        .containsExactly("dev/vpc-blue");
  }

  @Test
  void getEnvFallsBackToItsDefaultWhenTheVariableIsNotSet() {
    tree.with(
        "dev/app/terragrunt.hcl", dependency("vpc", "../${get_env(\"VPC_NAME\", \"vpc-green\")}"));

    assertThat(targets(read("dev/app", Map.of("OTHER", "x")))).containsExactly("dev/vpc-green");
    assertThat(targets(read("dev/app", Map.of("VPC_NAME", "vpc-blue"))))
        .containsExactly("dev/vpc-blue");
  }

  @Test
  void getEnvOfAnUnsetVariableWithoutDefaultIsAnErrorWhereItIsNeeded() {
    tree.with(
        "dev/app/terragrunt.hcl",
        "inputs = {\n  token = get_env(\"TOKEN\")\n}\n"
            + dependency("vpc", "../${get_env(\"VPC_NAME\")}"));

    assertThatThrownBy(() -> read("dev/app"))
        .isInstanceOf(InvalidTerragruntConfig.class)
        .hasMessageContaining("dev/app/terragrunt.hcl:5")
        .hasMessageContaining("get_env(): VPC_NAME is not set and has no default")
        .hasMessageNotContaining("TOKEN");
  }

  @Test
  void readTerragruntConfigExposesTheLocalsOfTheFileEvaluatedInItsOwnDirectory() {
    tree.with("dev/env.hcl", "locals {\n  vpc_dir = \"${get_terragrunt_dir()}/network/vpc\"\n}\n");

    UnitConfig config =
        read(
            "dev/eu/app",
            "locals {\n  env = read_terragrunt_config(find_in_parent_folders(\"env.hcl\"))\n}\n"
                + dependency("vpc", "${local.env.locals.vpc_dir}"));

    assertThat(targets(config)).containsExactly("dev/network/vpc");
    assertThat(config.reads())
        .containsExactlyInAnyOrder(
            new FileRead("dev/env.hcl", FileRead.Via.READ_TERRAGRUNT_CONFIG),
            new FileRead("dev/env.hcl", FileRead.Via.FIND_IN_PARENT_FOLDERS),
            new FileRead("dev/eu/env.hcl", FileRead.Via.FIND_IN_PARENT_FOLDERS),
            // Without a terraform.source, terraform runs in the unit's own directory.
            new FileRead("dev/eu/app", FileRead.Via.TERRAFORM_DIRECTORY));
  }

  private UnitConfig read(String unit, String config) {
    tree.with(unit + "/terragrunt.hcl", config);
    return read(unit);
  }

  @Test
  void readTerragruntConfigOfAMissingFileReturnsItsFallback() {
    assertThat(
            targetsOf(
                "dev/app",
                "locals {\n  env = read_terragrunt_config(\"missing.hcl\", { locals = { vpc = \"v\" } })\n}\n"
                    + dependency("vpc", "../${local.env.locals.vpc}")))
        .containsExactly("dev/v");
  }

  @Test
  void localsChainThroughEachOtherInAnyOrder() {
    assertThat(
            targetsOf(
                "dev/app",
                dependency("vpc", "${local.path}")
                    + "locals {\n  path = \"../${local.name}\"\n  name = \"${local.prefix}-vpc\"\n"
                    + "  prefix = lower(\"BLUE\")\n}\n"))
        .containsExactly("dev/blue-vpc");
  }

  @Test
  void stringInterpolationJoinsLiteralsWithNestedExpressionsAndQuotes() {
    assertThat(
            targetsOf(
                "dev/app",
                "locals {\n  parts = [\"net\", \"work\"]\n  n = 2\n}\n"
                    + dependency(
                        "vpc",
                        "../${join(\"\", local.parts)}-${local.n + 1}-${local.n > 1 ? \"big\" : \"small\"}")))
        .containsExactly("dev/network-3-big");
  }

  @Test
  void doubledDollarInAStringIsALiteralDollarBraceNotAnInterpolation() {
    assertThat(targetsOf("dev/app", dependency("vpc", "../$${literal}-${\"x\"}")))
        .containsExactly("dev/${literal}-x");
  }

  @Test
  void relativeAndAbsolutePathsNormaliseToRepoRelativeUnitIds() {
    tree.with("dev/eu/cache/terragrunt.hcl", "");

    assertThat(
            targetsOf(
                "dev/eu/app",
                "dependencies {\n  paths = [\n"
                    + "    \"./../vpc/\",\n"
                    + "    \"../../eu/./db//\",\n"
                    + "    \"${get_terragrunt_dir()}/../../../shared/dns/\",\n"
                    + "    \"/live/shared/./iam/../kms\",\n"
                    + "    \"../cache/terragrunt.hcl\",\n"
                    + "  ]\n}\n"))
        .containsExactly("dev/eu/vpc", "dev/eu/db", "shared/dns", "shared/kms", "dev/eu/cache")
        .allSatisfy(
            target ->
                assertThat(target)
                    .doesNotStartWith("./")
                    .doesNotStartWith("/")
                    .doesNotEndWith("/"));
  }

  @Test
  void pathThatClimbsAboveTheRepositoryIsAnErrorNamingFileAndLine() {
    tree.with("dev/app/terragrunt.hcl", "\n" + dependency("vpc", "../../../outside/vpc"));

    assertThatThrownBy(() -> read("dev/app"))
        .isInstanceOf(InvalidTerragruntConfig.class)
        .hasMessage(
            "dev/app/terragrunt.hcl:3: dependency \"vpc\": '../../../outside/vpc' is outside the"
                + " repository");
  }

  @Test
  void absolutePathOutsideTheRepositoryIsAnError() {
    tree.with("dev/app/terragrunt.hcl", dependency("vpc", "/etc/vpc"));

    assertThatThrownBy(() -> read("dev/app"))
        .isInstanceOf(InvalidTerragruntConfig.class)
        .hasMessageContaining("'/etc/vpc' is outside the repository");
  }

  @Test
  void localThatRefersToItselfIsHarmlessUntilItIsNeeded() {
    String selfReference = "locals {\n  loop = \"${local.loop}/x\"\n}\n";

    assertThat(targetsOf("dev/app", selfReference + dependency("vpc", "../vpc")))
        .containsExactly("dev/vpc");
    assertThatThrownBy(
            () -> targetsOf("dev/app", selfReference + dependency("vpc", "${local.loop}")))
        .isInstanceOf(InvalidTerragruntConfig.class)
        .hasMessage(
            "dev/app/terragrunt.hcl:5: dependency \"vpc\": the path cannot be worked out: line 2:"
                + " local.loop refers to itself");
  }

  @Test
  void localsThatReferToEachOtherInACircleAreAnErrorWhereNeeded() {
    assertThatThrownBy(
            () ->
                targetsOf(
                    "dev/app",
                    "locals {\n  a = local.b\n  b = local.a\n}\n"
                        + dependency("vpc", "${local.a}")))
        .isInstanceOf(InvalidTerragruntConfig.class)
        .hasMessageContaining("refers to itself");
  }

  @Test
  void dependencyOutputsInInputsAreNotNeededToReadTheGraph() {
    UnitConfig config =
        read(
            "dev/app",
            dependency("vpc", "../vpc")
                + "inputs = {\n  vpc_id = dependency.vpc.outputs.vpc_id\n"
                + "  subnets = [for s in dependency.vpc.outputs.subnets : s.id]\n}\n");

    assertThat(targets(config)).containsExactly("dev/vpc");
  }

  @Test
  void dependencyOutputsInAConfigPathAreAnErrorSayingTheyAreNotKnownYet() {
    tree.with(
        "dev/app/terragrunt.hcl",
        dependency("vpc", "../vpc") + dependency("db", "${dependency.vpc.outputs.db_dir}"));

    assertThatThrownBy(() -> read("dev/app"))
        .isInstanceOf(InvalidTerragruntConfig.class)
        .hasMessageContaining("dev/app/terragrunt.hcl:5: dependency \"db\"")
        .hasMessageContaining("dependency.vpc.outputs is not known when livegate scans");
  }
}
