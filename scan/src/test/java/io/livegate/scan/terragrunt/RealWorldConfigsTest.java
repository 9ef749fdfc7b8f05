package io.livegate.scan.terragrunt;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.livegate.scan.testing.InMemorySourceTree;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Configs written the way public Terragrunt repositories write them, which the hcl4j-based reader
 * refused or read wrongly (issue 14): for-expressions, template directives, computed keys and
 * functions on the way to a dependency path.
 */
class RealWorldConfigsTest {
  private final InMemorySourceTree tree = new InMemorySourceTree();

  private UnitConfig read(String unit, String config) {
    tree.with(unit + "/terragrunt.hcl", config);
    return new TerragruntConfigReader(tree, Map.of()).read(unit);
  }

  private List<String> targetsOf(String unit, String config) {
    return read(unit, config).dependencies().stream().map(DependencyDeclaration::target).toList();
  }

  @Test
  void forExpressionOverLocalsBuildsTheDependenciesPaths() {
    assertThat(
            targetsOf(
                "dev/app",
                """
                locals {
                  deps = ["vpc", "db"]
                }
                dependencies {
                  paths = [for d in local.deps : "../${d}"]
                }
                """))
        .containsExactly("dev/vpc", "dev/db");
  }

  @Test
  void formatlistFeedsTheDependenciesPaths() {
    assertThat(
            targetsOf(
                "dev/app",
                """
                dependencies {
                  paths = formatlist("../%s", sort(["vpc", "db"]))
                }
                """))
        .containsExactly("dev/db", "dev/vpc");
  }

  @Test
  void ifDirectiveInAConfigPathChoosesTheBranchTheConditionSelects() {
    String config =
        """
        locals {
          prod = %s
        }
        dependency "backend" {
          config_path = "../%%{ if local.prod }b-prod%%{ else }b%%{ endif }"
        }
        """;

    assertThat(targetsOf("prod/app", config.formatted("true"))).containsExactly("prod/b-prod");
    assertThat(targetsOf("dev/app", config.formatted("false"))).containsExactly("dev/b");
  }

  @Test
  void computedKeysAndObjectForExpressionsInInputsDoNotStopTheScan() {
    UnitConfig config =
        read(
            "dev/app",
            """
            locals {
              name = "app"
              tags = { team = "core", env = "dev" }
            }
            dependency "vpc" {
              config_path = "../vpc"
            }
            inputs = {
              (local.name) = 1
              labels       = { for k, v in local.tags : "p.${k}" => v }
              vpc_id       = dependency.vpc.outputs.vpc_id
              subnets      = dependency.vpc.outputs.subnets[*].id
              notes        = <<-EOT
                %{ for k in keys(local.tags) ~}
                ${k}
                %{ endfor ~}
              EOT
            }
            """);

    assertThat(config.dependencies())
        .extracting(DependencyDeclaration::target)
        .containsExactly("dev/vpc");
  }

  @Test
  void yamlFileReadInLocalsNamesTheDependenciesAndItsChangesChangeTheUnit() {
    tree.with("dev/deps.yaml", "dependencies:\n  - ../vpc\n  - ../db\n");

    UnitConfig config =
        read(
            "dev/app",
            """
            locals {
              file = "${get_terragrunt_dir()}/../deps.yaml"
              deps = fileexists(local.file) ? yamldecode(file(local.file)).dependencies : []
            }
            dependencies {
              paths = local.deps
            }
            """);

    assertThat(config.dependencies())
        .extracting(DependencyDeclaration::target)
        .containsExactly("dev/vpc", "dev/db");
    assertThat(config.reads()).contains(new FileRead("dev/deps.yaml", FileRead.Via.FILE));
  }

  @Test
  void templatestringRendersAStringReadFromAFileWithItsVariablesOnly() {
    tree.with("templates/path.tftpl", "../%{ if prod }${name}-prod%{ else }${name}%{ endif }");

    UnitConfig config =
        read(
            "dev/app",
            """
            locals {
              template = file("${get_repo_root()}/templates/path.tftpl")
            }
            dependency "x" {
              config_path = templatestring(local.template, { name = "vpc", prod = false })
            }
            """);

    assertThat(config.dependencies())
        .extracting(DependencyDeclaration::target)
        .containsExactly("dev/vpc");
    assertThat(config.reads()).contains(new FileRead("templates/path.tftpl", FileRead.Via.FILE));
    assertThatThrownBy(
            () ->
                read(
                    "dev/other",
                    "dependency \"x\" {\n  config_path = templatestring(\"../$${y}\", {})\n}\n"))
        .isInstanceOf(InvalidTerragruntConfig.class)
        .hasMessage(
            "dev/other/terragrunt.hcl:2: dependency \"x\": the path cannot be worked out:"
                + " templatestring() template:1: 'y' is not among the variables passed to"
                + " templatestring()");
  }

  @Test
  void templatefileRendersWithItsVariablesAndRecordsTheTemplateAsRead() {
    tree.with("templates/path.tftpl", "../%{ for p in parts }${p}%{ endfor }");

    UnitConfig config =
        read(
            "dev/app",
            """
            dependency "x" {
              config_path = templatefile("${get_repo_root()}/templates/path.tftpl", { parts = ["v", "pc"] })
            }
            """);

    assertThat(config.dependencies())
        .extracting(DependencyDeclaration::target)
        .containsExactly("dev/vpc");
    assertThat(config.reads())
        .contains(new FileRead("templates/path.tftpl", FileRead.Via.TEMPLATEFILE));
  }

  @Test
  void regexAndStringFunctionsOnAPathGiveTheTarget() {
    assertThat(
            targetsOf(
                "dev/eu-west-1/app",
                """
                locals {
                  region = regex("dev/([a-z0-9-]+)/", get_path_from_repo_root())[0]
                  short  = lower(substr(trimspace(title(local.region)), 0, 2))
                }
                dependency "vpc" {
                  config_path = "../../${local.short}-vpc"
                }
                """))
        .containsExactly("dev/eu-vpc");
  }

  @Test
  void valueThatRunsACommandIsFineInInputsButAnErrorInAConfigPathNamingTheConstruct() {
    assertThat(targetsOf("dev/app", "inputs = { who = run_cmd(\"whoami\") }\n")).isEmpty();

    assertThatThrownBy(
            () ->
                read(
                    "dev/other",
                    "dependency \"x\" {\n  config_path = run_cmd(\"echo\", \"../vpc\")\n}\n"))
        .isInstanceOf(InvalidTerragruntConfig.class)
        .hasMessage(
            "dev/other/terragrunt.hcl:2: dependency \"x\": the path cannot be worked out:"
                + " run_cmd() is never called by a livegate scan; its value is not known");
  }
}
