package io.livegate.scan;

import static io.livegate.scan.testing.Scans.allUnits;
import static io.livegate.scan.testing.Scans.execution;
import static io.livegate.scan.testing.Scans.units;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.livegate.core.account.Account;
import io.livegate.core.account.Accounts;
import io.livegate.core.stack.DeployStack;
import io.livegate.scan.terragrunt.InvalidTerragruntConfig;
import io.livegate.scan.testing.Scans;
import io.livegate.scan.testing.TestRepo;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Smaller rules where livegate read a config otherwise than terragrunt does, each fixture named for
 * its rule and the terragrunt source that fixes it. (exclude_dependencies leaving out direct
 * dependencies only is in {@link ExclusionsTest}.)
 */
class TerragruntRulesTest {
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

  // terragrunt v1.1.3 pkg/config/config_partial.go decodes every dependency block of a file and
  // turns each config_path into a dependency path (dependencyBlocksToModuleDependencies), with no
  // check that labels differ.
  @Test
  void twoDependencyBlocksWithOneLabelInOneFileKeepBothEdges() {
    repo.unit("live/vpc", "");
    repo.unit("live/dns", "");
    repo.unit(
        "live/app",
        "dependency \"net\" {\n  config_path = \"../vpc\"\n}\n\n"
            + "dependency \"net\" {\n  config_path = \"../dns\"\n}\n");

    DeployStack stack = allUnits(repo, repo.commit("one label twice"));

    assertThat(execution(stack, "live/app").dependsOn()).containsExactly("live/dns", "live/vpc");
  }

  // Across an include the including file's blocks replace the included file's blocks of the same
  // label (v1.1.3 pkg/config/include.go mergeDependencyBlocks), both of them.
  @Test
  void aUnitsOwnDependencyBlockReplacesBothIncludedBlocksWithItsLabel() {
    repo.unit("live/vpc", "");
    repo.unit("live/dns", "");
    repo.unit("live/edge", "");
    repo.write(
        "common/net.hcl",
        "dependency \"net\" {\n  config_path = \"${get_terragrunt_dir()}/../vpc\"\n}\n\n"
            + "dependency \"net\" {\n  config_path = \"${get_terragrunt_dir()}/../dns\"\n}\n");
    repo.unit(
        "live/app",
        "include \"net\" {\n  path = \"${get_repo_root()}/common/net.hcl\"\n}\n\n"
            + "dependency \"net\" {\n  config_path = \"../edge\"\n}\n");
    repo.unit("live/api", "include \"net\" {\n  path = \"${get_repo_root()}/common/net.hcl\"\n}\n");

    DeployStack stack = allUnits(repo, repo.commit("included label twice"));

    assertThat(execution(stack, "live/app").dependsOn()).containsExactly("live/edge");
    assertThat(execution(stack, "live/api").dependsOn()).containsExactly("live/dns", "live/vpc");
  }

  // v1.1.3 pkg/config/stack.go: writeValues returns without writing terragrunt.values.hcl when a
  // stack block passes no values, ReadValues then gives nil, and the nested stack file has no
  // 'values' variable to read.
  @Test
  void nestedStackWhoseParentPassesNoValuesFailsWhereItReadsValues() {
    repo.write("catalog/units/app/terragrunt.hcl", "");
    repo.write("catalog/units/app/main.tf", MAIN_TF);
    repo.write(
        "catalog/stacks/service/terragrunt.stack.hcl",
        "unit \"app\" {\n  source = \"${get_repo_root()}/catalog/units/app\"\n"
            + "  path   = values.name\n}\n");
    repo.write(
        "live/terragrunt.stack.hcl",
        "stack \"billing\" {\n  source = \"../catalog/stacks/service\"\n  path   = \"billing\"\n}\n");
    String head = repo.commit("a nested stack given no values");

    assertThatThrownBy(() -> allUnits(repo, head))
        .isInstanceOf(InvalidTerragruntConfig.class)
        .hasMessageContaining(
            "live/.terragrunt-stack/billing/terragrunt.stack.hcl:3: 'values' is not set: the stack"
                + " block that generates this stack passes no values");
  }

  @Test
  void nestedStackGivenNoValuesThatNeverReadsThemGeneratesItsUnits() {
    repo.write("catalog/units/app/terragrunt.hcl", "");
    repo.write("catalog/units/app/main.tf", MAIN_TF);
    repo.write(
        "catalog/stacks/service/terragrunt.stack.hcl",
        "unit \"app\" {\n  source = \"${get_repo_root()}/catalog/units/app\"\n  path = \"app\"\n}\n");
    repo.write(
        "live/terragrunt.stack.hcl",
        "stack \"billing\" {\n  source = \"../catalog/stacks/service\"\n  path   = \"billing\"\n}\n");

    DeployStack stack = allUnits(repo, repo.commit("a nested stack without values"));

    assertThat(units(stack))
        .containsExactly("live/.terragrunt-stack/billing/.terragrunt-stack/app");
  }

  // A terragrunt.hcl outside every account is never a unit of the scan, so a broken one stops
  // nothing; a stack there generates no unit of the scan either, so it stops nothing.
  @Test
  void brokenStackOutsideEveryAccountIsIgnoredLikeABrokenUnitThere() {
    repo.unit("live/app", "");
    repo.unit("sandbox/broken", "locals {\n  a = [1,\n}\n");
    repo.write(
        "sandbox/stacks/terragrunt.stack.hcl",
        "unit \"x\" {\n  source = \"../missing\"\n  path   = \"x\"\n}\n");
    repo.write(
        "live/stacks/terragrunt.stack.hcl",
        "unit \"y\" {\n  source = \"../missing\"\n  path   = \"y\"\n}\n");
    String head = repo.commit("broken things inside and outside the account");
    Accounts live = Accounts.of(List.of(Account.of("live", "live", List.of())));

    assertThatThrownBy(
            () ->
                Scans.run(
                    ScanCommand.builder(repo.root(), live)
                        .head(head)
                        .everyUnit()
                        .parallelism(2)
                        .build()))
        .isInstanceOf(InvalidTerragruntConfig.class)
        .hasMessage(
            "live/stacks/terragrunt.stack.hcl:1: unit \"y\" (live/stacks/.terragrunt-stack/y): its"
                + " source '../missing' has no terragrunt.hcl (unit"
                + " live/stacks/.terragrunt-stack/y)");
    repo.write("live/stacks/terragrunt.stack.hcl", "");

    DeployStack stack =
        Scans.run(
            ScanCommand.builder(repo.root(), live)
                .head(repo.commit("the account's stack mended"))
                .everyUnit()
                .parallelism(2)
                .build());

    assertThat(units(stack)).containsExactly("live/app");
  }
}
