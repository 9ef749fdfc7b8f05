package io.livegate.scan;

import static io.livegate.scan.testing.ReferenceScenario.dependency;
import static io.livegate.scan.testing.Scans.allUnits;
import static io.livegate.scan.testing.Scans.execution;
import static io.livegate.scan.testing.Scans.graphScan;
import static io.livegate.scan.testing.Scans.units;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.livegate.core.account.Accounts;
import io.livegate.core.stack.DeployStack;
import io.livegate.core.stack.ExcludedUnit;
import io.livegate.scan.terragrunt.InvalidTerragruntConfig;
import io.livegate.scan.testing.TestRepo;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code exclude}, {@code feature} defaults and {@code skip} decide what is deployed, and the stack
 * says why each unit is left out.
 *
 * <p>The live repository: {@code dns} is switched off by a feature flag whose default is on; {@code
 * db} only excludes destroy; {@code frozen} is excluded by the file it includes; {@code reporting}
 * is excluded with its direct dependency {@code warehouse}, but not with {@code lake}, which the
 * warehouse depends on; {@code app} depends on {@code db} and {@code dns}. {@code skip}, whose
 * rules changed between terragrunt releases, is in {@link SkipByTerragruntVersionTest}.
 */
class ExclusionsTest {
  @TempDir Path dir;
  private TestRepo repo;
  private String base;

  @BeforeEach
  void createRepo() {
    repo = TestRepo.create(dir);
    repo.write("_envcommon/frozen.hcl", "exclude {\n  if      = true\n  actions = [\"all\"]\n}\n");
    unit(
        "dev/dns",
        "feature \"disable_dns\" {\n  default = true\n}\n\n"
            + "exclude {\n  if      = feature.disable_dns.value\n  actions = [\"all\"]\n}\n");
    unit("dev/db", "exclude {\n  if      = true\n  actions = [\"destroy\"]\n}\n");
    unit(
        "dev/frozen",
        "include \"frozen\" {\n  path = \"${get_repo_root()}/_envcommon/frozen.hcl\"\n}\n");
    unit("dev/lake", "");
    unit("dev/warehouse", dependency("lake", "../lake"));
    unit(
        "dev/reporting",
        dependency("warehouse", "../warehouse")
            + "exclude {\n  if                   = true\n  actions              = [\"plan\","
            + " \"apply\"]\n  exclude_dependencies = true\n}\n");
    unit("dev/app", dependency("db", "../db") + dependency("dns", "../dns"));
    base = repo.commit("live repository with exclusions");
  }

  @AfterEach
  void closeRepo() {
    repo.close();
  }

  private void unit(String id, String config) {
    repo.write(id + "/terragrunt.hcl", config);
    repo.write(id + "/main.tf", "resource \"terraform_data\" \"this\" {}\n");
  }

  @Test
  void everyUnitScanLeavesOutExactlyTheExcludedUnitsEachWithItsReason() {
    DeployStack stack = allUnits(repo, base);

    // exclude_dependencies leaves out direct dependencies only, so the lake stays (terragrunt
    // v1.1.3 internal/discovery/discovery.go applyExcludeModules marks unit.Dependencies()).
    assertThat(units(stack)).containsExactly("dev/db", "dev/lake", "dev/app");
    assertThat(execution(stack, "dev/app").dependsOn()).containsExactly("dev/db");
    assertThat(stack.excluded())
        .containsExactly(
            new ExcludedUnit(
                "dev/dns",
                "default",
                "exclude { actions = [\"all\"] } at dev/dns/terragrunt.hcl:5"),
            new ExcludedUnit(
                "dev/frozen",
                "default",
                "exclude { actions = [\"all\"] } at _envcommon/frozen.hcl:1"),
            new ExcludedUnit(
                "dev/reporting",
                "default",
                "exclude { actions = [\"plan\", \"apply\"], exclude_dependencies = true } at"
                    + " dev/reporting/terragrunt.hcl:4"),
            new ExcludedUnit(
                "dev/warehouse",
                "default",
                "a dependency of dev/reporting, whose exclude { actions = [\"plan\", \"apply\"],"
                    + " exclude_dependencies = true } at dev/reporting/terragrunt.hcl:4 leaves out"
                    + " its dependencies"));
  }

  @Test
  void changeToAnExcludedUnitDeploysNeitherItNorWhatDependsOnlyOnIt() {
    repo.touch("dev/dns/main.tf").touch("dev/warehouse/main.tf");

    DeployStack stack = graphScan(repo, base, repo.commit("change dns and the warehouse"));

    assertThat(stack.executions()).isEmpty();
    assertThat(stack.excluded())
        .extracting(ExcludedUnit::unit)
        .containsExactly("dev/dns", "dev/reporting", "dev/warehouse");
  }

  @Test
  void featureValueGivenInTheEnvironmentOverridesItsDefault() {
    repo.touch("dev/dns/main.tf");

    DeployStack stack =
        graphScan(
            repo,
            base,
            repo.commit("change dns"),
            Accounts.wholeRepository(),
            Map.of("TG_FEATURE", "disable_dns=false"));

    assertThat(units(stack)).containsExactly("dev/dns", "dev/app");
    assertThat(stack.excluded()).isEmpty();
  }

  @Test
  void excludeWhoseConditionCannotBeWorkedOutIsAnErrorNamingFileAndLine() {
    unit("dev/db", "exclude {\n  if      = get_env(\"FREEZE\")\n  actions = [\"all\"]\n}\n");
    String head = repo.commit("freeze db by the environment");

    assertThatThrownBy(() -> allUnits(repo, head))
        .isInstanceOf(InvalidTerragruntConfig.class)
        .hasMessage(
            "dev/db/terragrunt.hcl:2: exclude.if must be true or false, get_env(): FREEZE is not"
                + " set and has no default");
  }
}
