package io.livegate.scan;

import static io.livegate.scan.testing.Scans.allUnitsCommand;
import static io.livegate.scan.testing.Scans.run;
import static io.livegate.scan.testing.Scans.units;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.livegate.core.stack.DeployStack;
import io.livegate.core.stack.ExcludedUnit;
import io.livegate.scan.terragrunt.InvalidTerragruntConfig;
import io.livegate.scan.terragrunt.TerragruntVersion;
import io.livegate.scan.testing.TestRepo;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code skip} as the terragrunt release that runs the units reads it. The live repository is the
 * older layout: a root {@code terragrunt.hcl} with {@code skip = true}, so that {@code run-all}
 * leaves the root itself out, included by every unit.
 *
 * <p>The rules, from terragrunt's own source at each tag: v0.67.0 config/include.go merges the
 * unit's own {@code Skip} over the included one unconditionally ("Skip has to be set specifically
 * in each file that should be skipped"); v0.68.0 to v0.92.0 config/include.go merge the included
 * {@code skip} unless the unit sets its own ({@code if sourceConfig.Skip != nil}); v0.93.0
 * config/config.go has no {@code skip} attribute, so a full parse rejects it; the {@code exclude}
 * block appears in v0.69.0 config/config.go.
 */
class SkipByTerragruntVersionTest {
  private static final TerragruntVersion V0_67 = new TerragruntVersion(0, 67, 0);
  private static final TerragruntVersion V0_68 = new TerragruntVersion(0, 68, 0);
  private static final TerragruntVersion V0_92 = new TerragruntVersion(0, 92, 0);
  private static final TerragruntVersion V0_93 = new TerragruntVersion(0, 93, 0);
  private static final String INCLUDE_ROOT =
      "include \"root\" {\n  path = find_in_parent_folders()\n}\n";

  @TempDir Path dir;
  private TestRepo repo;

  @BeforeEach
  void createRepo() {
    repo = TestRepo.create(dir);
    repo.write("live/terragrunt.hcl", "skip = true\n\nlocals {\n  org = \"acme\"\n}\n");
    repo.unit("live/dev/vpc", INCLUDE_ROOT);
    repo.unit(
        "live/dev/app", INCLUDE_ROOT + "dependency \"vpc\" {\n  config_path = \"../vpc\"\n}\n");
  }

  @AfterEach
  void closeRepo() {
    repo.close();
  }

  private DeployStack scanFor(TerragruntVersion version) {
    return run(allUnitsCommand(repo, repo.commit("root skip")).withTerragruntVersion(version));
  }

  @Test
  void before068TheRootSkipLeavesOutOnlyTheRootAndEveryIncludingUnitIsDeployed() {
    DeployStack stack = scanFor(V0_67);

    assertThat(units(stack)).containsExactly("live/dev/vpc", "live/dev/app");
    assertThat(stack.excluded())
        .containsExactly(
            new ExcludedUnit("live", "default", "skip = true at live/terragrunt.hcl:1"));
  }

  @Test
  void from068ToThe092ReleasesTheInheritedSkipLeavesEveryUnitOutWhichFailsTheScan() {
    for (TerragruntVersion version : new TerragruntVersion[] {V0_68, V0_92}) {
      assertThatThrownBy(() -> scanFor(version))
          .isInstanceOf(EveryUnitLeftOut.class)
          .hasMessageStartingWith(
              "every unit (3) is left out under terragrunt "
                  + version
                  + "'s rules, so nothing would ever be deployed: skip = true at"
                  + " live/terragrunt.hcl:1. Check the terragrunt version");
    }
  }

  @Test
  void everyUnitLeftOutIsAWarningOnlyWhenTheScanIsToldSo() {
    DeployStack stack =
        run(
            allUnitsCommand(repo, repo.commit("root skip"))
                .withTerragruntVersion(V0_68)
                .withEveryUnitLeftOutAsWarning());

    assertThat(stack.executions()).isEmpty();
    assertThat(stack.excluded())
        .extracting(ExcludedUnit::unit)
        .containsExactly("live", "live/dev/app", "live/dev/vpc");
    assertThat(stack.warnings())
        .containsExactly(
            "every unit (3) is left out under terragrunt 0.68.0's rules, so nothing would ever be"
                + " deployed: skip = true at live/terragrunt.hcl:1");
  }

  @Test
  void from068AUnitsOwnSkipFalseOverridesTheInheritedOne() {
    repo.unit("live/dev/app", INCLUDE_ROOT + "skip = false\n");

    DeployStack stack = scanFor(V0_92);

    assertThat(units(stack)).containsExactly("live/dev/app");
    assertThat(stack.excluded())
        .extracting(ExcludedUnit::unit)
        .containsExactly("live", "live/dev/vpc");
  }

  @Test
  void from093SkipIsAnErrorNamingTheFileAndLineAndTheExcludeBlockToUseInstead() {
    for (TerragruntVersion version : new TerragruntVersion[] {V0_93, TerragruntVersion.DEFAULT}) {
      assertThatThrownBy(() -> scanFor(version))
          .isInstanceOf(InvalidTerragruntConfig.class)
          .hasMessage(
              "live/terragrunt.hcl:1: 'skip' was removed in terragrunt 0.93.0 and this scan reads"
                  + " configs for terragrunt "
                  + version
                  + ", which rejects it; write exclude { if = true, actions = [\"all\"] } in the"
                  + " unit instead (an exclude block in an included file applies to every"
                  + " includer) (units live, live/dev/app, live/dev/vpc)");
    }
  }

  @Test
  void before069AnExcludeBlockIsAnErrorSinceThatReleaseDoesNotKnowIt() {
    repo.unit(
        "live/dev/app", INCLUDE_ROOT + "exclude {\n  if      = true\n  actions = [\"all\"]\n}\n");

    assertThatThrownBy(() -> scanFor(V0_68))
        .isInstanceOf(InvalidTerragruntConfig.class)
        .hasMessage(
            "live/dev/app/terragrunt.hcl:4: the exclude block needs terragrunt 0.69.0 or later,"
                + " and this scan reads configs for terragrunt 0.68.0");
  }

  @Test
  void versionIsReadFromWhatTerragruntVersionPrints() {
    assertThat(TerragruntVersion.parse("terragrunt version v0.68.2\n"))
        .isEqualTo(new TerragruntVersion(0, 68, 2));
    assertThat(TerragruntVersion.parse("v1.1.3-rc1")).isEqualTo(new TerragruntVersion(1, 1, 3));
    assertThatThrownBy(() -> TerragruntVersion.parse("latest"))
        .hasMessage("'latest' is not a terragrunt version (expected e.g. 0.68.2 or v1.1.3)");
  }
}
