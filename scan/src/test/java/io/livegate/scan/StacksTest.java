package io.livegate.scan;

import static io.livegate.scan.testing.Scans.allUnits;
import static io.livegate.scan.testing.Scans.execution;
import static io.livegate.scan.testing.Scans.graphScan;
import static io.livegate.scan.testing.Scans.units;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.livegate.core.ProgressListener;
import io.livegate.core.account.Accounts;
import io.livegate.core.stack.DeletedUnit;
import io.livegate.core.stack.DeployStack;
import io.livegate.core.stack.Reason;
import io.livegate.scan.terragrunt.InvalidTerragruntConfig;
import io.livegate.scan.testing.TestRepo;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Units that terragrunt.stack.hcl files generate, named and read as {@code terragrunt stack
 * generate} would produce them, without writing into the repository.
 *
 * <p>The live repository keeps a local catalog: {@code catalog/units/vpc} (sourcing {@code
 * modules/vpc}) and {@code catalog/units/app} (whose dependency path and name come from {@code
 * values}, and which reads its {@code config.yaml}); {@code catalog/stacks/service} is a stack of
 * one app. {@code live/dev} generates a vpc, the nested stack {@code billing}, and a {@code
 * legacy-vpc} with {@code no_dot_terragrunt_stack}; {@code live/prod} generates a vpc and an app.
 */
class StacksTest {
  private static final String DEV_VPC = "live/dev/.terragrunt-stack/vpc";
  private static final String DEV_APP = "live/dev/.terragrunt-stack/billing/.terragrunt-stack/app";
  private static final String DEV_LEGACY = "live/dev/legacy-vpc";
  private static final String PROD_VPC = "live/prod/.terragrunt-stack/vpc";
  private static final String PROD_APP = "live/prod/.terragrunt-stack/app";

  @TempDir Path dir;
  private TestRepo repo;
  private String base;

  @BeforeEach
  void createRepo() {
    repo = TestRepo.create(dir);
    repo.write("root.hcl", "locals {\n  org = \"acme\"\n}\n");
    repo.write("modules/vpc/main.tf", "variable \"cidr\" {}\n");
    repo.write(
        "catalog/units/vpc/terragrunt.hcl",
        "include \"root\" {\n  path = find_in_parent_folders(\"root.hcl\")\n}\n\n"
            + "terraform {\n  source = \"${get_repo_root()}/modules//vpc\"\n}\n\n"
            + "inputs = {\n  cidr = values.cidr\n}\n");
    repo.write(
        "catalog/units/app/terragrunt.hcl",
        "dependency \"vpc\" {\n  config_path = values.vpc_path\n}\n\n"
            + "inputs = {\n  name   = values.name\n"
            + "  config = yamldecode(file(\"config.yaml\"))\n}\n");
    repo.write("catalog/units/app/config.yaml", "replicas: 2\n");
    repo.write(
        "catalog/stacks/service/terragrunt.stack.hcl",
        "unit \"app\" {\n  source = \"${get_repo_root()}/catalog/units/app\"\n  path   = \"app\"\n"
            + "  values = {\n    name     = values.name\n    vpc_path = values.vpc_path\n  }\n}\n");
    repo.write(
        "live/dev/terragrunt.stack.hcl",
        "locals {\n  env = \"dev\"\n}\n\n"
            + "unit \"vpc\" {\n  source = \"../../catalog/units/vpc\"\n  path   = \"vpc\"\n"
            + "  values = {\n    cidr = \"10.0.0.0/16\"\n  }\n}\n\n"
            + "stack \"billing\" {\n  source = \"../../catalog/stacks/service\"\n"
            + "  path   = \"billing\"\n"
            + "  values = {\n    name     = \"${local.env}-billing\"\n"
            + "    vpc_path = \"../../../vpc\"\n  }\n}\n\n"
            + "unit \"legacy\" {\n  source = \"../../catalog/units/vpc\"\n"
            + "  path   = \"legacy-vpc\"\n  no_dot_terragrunt_stack = true\n"
            + "  values = {\n    cidr = \"10.1.0.0/16\"\n  }\n}\n");
    repo.write("live/prod/terragrunt.stack.hcl", prodStack("../../catalog/units/vpc"));
    base = repo.commit("stacks from a local catalog");
  }

  private static String prodStack(String vpcSource) {
    return "unit \"vpc\" {\n  source = \""
        + vpcSource
        + "\"\n  path   = \"vpc\"\n  values = {\n    cidr = \"10.2.0.0/16\"\n  }\n}\n\n"
        + "unit \"app\" {\n  source = \"../../catalog/units/app\"\n  path   = \"app\"\n"
        + "  values = {\n    name     = \"prod-app\"\n    vpc_path = \"../vpc\"\n  }\n}\n";
  }

  @AfterEach
  void closeRepo() {
    repo.close();
  }

  private DeployStack scanAfter(String message) {
    return graphScan(repo, base, repo.commit(message));
  }

  @Test
  void stacksGenerateTheirUnitsWhereTerragruntWouldWithValuesFeedingDependencyPaths() {
    DeployStack stack = allUnits(repo, base);

    assertThat(units(stack)).containsExactly(DEV_VPC, DEV_LEGACY, PROD_VPC, DEV_APP, PROD_APP);
    assertThat(execution(stack, DEV_APP).dependsOn()).containsExactly(DEV_VPC);
    assertThat(execution(stack, PROD_APP).dependsOn()).containsExactly(PROD_VPC);
    assertThat(execution(stack, DEV_LEGACY).dependsOn()).isEmpty();
    assertThat(stack.warnings())
        .containsExactly(
            "catalog/units/app/terragrunt.hcl is the source of units that stacks generate (such as "
                + DEV_APP
                + "), so it is a catalog unit, not a unit",
            "catalog/units/vpc/terragrunt.hcl is the source of units that stacks generate (such as "
                + DEV_VPC
                + "), so it is a catalog unit, not a unit");
    assertThat(dir.resolve("live/dev/.terragrunt-stack")).doesNotExist();
  }

  @Test
  void changeToACatalogUnitChangesEveryUnitGeneratedFromItAndTheirDependents() {
    repo.touch("catalog/units/vpc/terragrunt.hcl");

    DeployStack stack = scanAfter("change the vpc catalog unit");

    assertThat(units(stack)).containsExactly(DEV_VPC, DEV_LEGACY, PROD_VPC, DEV_APP, PROD_APP);
    assertThat(execution(stack, DEV_VPC).reasons())
        .containsExactly(
            Reason.readsChangedFile("catalog/units/vpc/terragrunt.hcl", "stack unit source"));
    assertThat(execution(stack, DEV_APP).reasons()).containsExactly(Reason.dependsOn(DEV_VPC));
  }

  @Test
  void fileThatACatalogUnitReadsChangesTheGeneratedUnitsThatReadIt() {
    repo.touch("catalog/units/app/config.yaml");

    DeployStack stack = scanAfter("more replicas");

    assertThat(units(stack)).containsExactly(DEV_APP, PROD_APP);
    assertThat(execution(stack, PROD_APP).reasons())
        .containsExactly(Reason.readsChangedFile("catalog/units/app/config.yaml", "file"));
  }

  @Test
  void changeToOneUnitsValueInAStackFileChangesOnlyThatUnit() {
    repo.write(
        "live/dev/terragrunt.stack.hcl",
        repo.read("live/dev/terragrunt.stack.hcl").replace("10.1.0.0/16", "10.9.0.0/16"));

    DeployStack stack = scanAfter("resize the legacy vpc");

    assertThat(units(stack)).containsExactly(DEV_LEGACY);
    assertThat(execution(stack, DEV_LEGACY).reasons())
        .containsExactly(
            Reason.readsChangedFile("live/dev/terragrunt.stack.hcl", "terragrunt.stack.hcl"));
  }

  @Test
  void changeToAValueANestedStackPassesOnChangesTheUnitItGenerates() {
    repo.write(
        "live/dev/terragrunt.stack.hcl",
        repo.read("live/dev/terragrunt.stack.hcl").replace("-billing", "-invoicing"));

    DeployStack stack = scanAfter("rename billing");

    assertThat(units(stack)).containsExactly(DEV_APP);
  }

  @Test
  void unitBlockRemovedFromAStackFileIsADeletedUnitThatItsAccountDestroys() {
    String dev = repo.read("live/dev/terragrunt.stack.hcl");
    repo.write("live/dev/terragrunt.stack.hcl", dev.substring(0, dev.indexOf("unit \"legacy\"")));

    DeployStack stack = scanAfter("drop the legacy vpc");

    assertThat(stack.executions()).isEmpty();
    assertThat(stack.deleted())
        .containsExactly(
            new DeletedUnit(
                DEV_LEGACY,
                "default",
                java.util.List.of(
                    new Reason(Reason.Kind.DELETED_FILE, "live/dev/terragrunt.stack.hcl", null)),
                java.util.List.of(),
                java.util.List.of(),
                true));
  }

  @ParameterizedTest
  @ValueSource(strings = {"../x", "a/../../x", "../../../outside", "/tmp/x"})
  void unitPathThatLeavesTheDirectoryItGeneratesIntoIsOneErrorAndGeneratesNothing(String path) {
    for (boolean noDot : new boolean[] {false, true}) {
      repo.write(
          "live/prod/terragrunt.stack.hcl",
          "unit \"evil\" {\n  source = \"../../catalog/units/vpc\"\n  path   = \""
              + path
              + "\"\n  no_dot_terragrunt_stack = "
              + noDot
              + "\n  values = {\n    cidr = \"10.9.0.0/16\"\n  }\n}\n");
      String head = repo.commit("a unit path that leaves its stack: " + path);

      assertThatThrownBy(() -> allUnits(repo, head))
          .as(path + (noDot ? " with no_dot_terragrunt_stack" : ""))
          .isInstanceOf(InvalidTerragruntConfig.class)
          .hasMessage(
              "live/prod/terragrunt.stack.hcl:1: unit \"evil\": path '"
                  + path
                  + "' leaves the stack ("
                  + (noDot ? "live/prod" : "live/prod/.terragrunt-stack")
                  + ") (unit live/prod/terragrunt.stack.hcl:1)");
    }
  }

  @Test
  void stackSourceOfAKindOtherThanGitIsOneErrorNamingTheUnit() {
    repo.write(
        "live/prod/terragrunt.stack.hcl",
        prodStack("s3::https://s3.amazonaws.com/acme-catalog/units.zip//vpc"));
    String head = repo.commit("vpc from an s3 archive");

    assertThatThrownBy(() -> allUnits(repo, head))
        .isInstanceOf(InvalidTerragruntConfig.class)
        .hasMessage(
            "live/prod/terragrunt.stack.hcl:1: unit \"vpc\" ("
                + PROD_VPC
                + "): 's3::https://s3.amazonaws.com/acme-catalog/units.zip//vpc': source kind"
                + " not supported: s3::; livegate fetches git sources only (git::<url>,"
                + " github.com/<org>/<repo>, git@<host>:<path>) (unit "
                + PROD_VPC
                + ")");
  }

  @Test
  void stackSourceOfAKindOtherThanGitIsAWarningWhenPartialScansAreAllowed() {
    repo.write(
        "live/prod/terragrunt.stack.hcl",
        prodStack("s3::https://s3.amazonaws.com/acme-catalog/units.zip//vpc"));
    String head = repo.commit("vpc from an s3 archive");

    DeployStack stack =
        new GraphScan(ProgressListener.silent())
            .run(
                ScanCommand.builder(repo.root(), Accounts.wholeRepository())
                    .head(head)
                    .everyUnit()
                    .parallelism(2)
                    .allowPartial(true)
                    .build());

    assertThat(units(stack)).containsExactly(DEV_VPC, DEV_LEGACY, PROD_APP, DEV_APP);
    assertThat(execution(stack, PROD_APP).dependsOn()).isEmpty();
    assertThat(stack.warnings())
        .filteredOn(warning -> warning.startsWith("--allow-partial"))
        .containsExactly(
            "--allow-partial: live/prod/terragrunt.stack.hcl:1: unit \"vpc\" ("
                + PROD_VPC
                + "): 's3::https://s3.amazonaws.com/acme-catalog/units.zip//vpc': source kind"
                + " not supported: s3::; livegate fetches git sources only (git::<url>,"
                + " github.com/<org>/<repo>, git@<host>:<path>) (unit "
                + PROD_VPC
                + ")");
  }
}
