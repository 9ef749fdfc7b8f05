package io.livegate.scan;

import static io.livegate.scan.testing.ReferenceScenario.dependency;
import static io.livegate.scan.testing.Scans.allUnits;
import static io.livegate.scan.testing.Scans.execution;
import static io.livegate.scan.testing.Scans.graphScan;
import static io.livegate.scan.testing.Scans.units;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.livegate.core.LivegateException;
import io.livegate.core.stack.DeployStack;
import io.livegate.core.stack.Reason;
import io.livegate.scan.graph.DependencyCycle;
import io.livegate.scan.terragrunt.InvalidTerragruntConfig;
import io.livegate.scan.testing.TestRepo;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Configs written to break a scan, trick it or run code: each is answered, never obeyed. */
class HostileInputTest {
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

  /** A rotation of {@code expected}, the first unit repeated at the end. */
  private static boolean isRotationOf(List<String> cycle, List<String> expected) {
    if (cycle.size() != expected.size() + 1 || !cycle.get(0).equals(cycle.get(cycle.size() - 1))) {
      return false;
    }
    int start = expected.indexOf(cycle.get(0));
    for (int i = 0; i < expected.size(); i++) {
      if (start < 0 || !cycle.get(i).equals(expected.get((start + i) % expected.size()))) {
        return false;
      }
    }
    return true;
  }

  @Test
  void dependencyCycleIsReportedWithItsPathAndTheDeclarationBehindEachEdge() {
    repo.unit("a", dependency("b", "../b"));
    repo.unit("b", dependency("c", "../c"));
    repo.unit("c", "\n" + dependency("a", "../a"));
    String base = repo.commit("a cycle");
    repo.touch("b/main.tf");
    String head = repo.commit("change b");

    DependencyCycle cycle =
        catchThrowableOfType(DependencyCycle.class, () -> graphScan(repo, base, head));

    assertThat(isRotationOf(cycle.cycle(), List.of("a", "b", "c")))
        .as("%s is a -> b -> c -> a from some start", cycle.cycle())
        .isTrue();
    assertThat(cycle.getMessage())
        .contains(String.join(" -> ", cycle.cycle()))
        .contains("a -> b: a/terragrunt.hcl:2 (dependency \"b\")")
        .contains("b -> c: b/terragrunt.hcl:2 (dependency \"c\")")
        .contains("c -> a: c/terragrunt.hcl:3 (dependency \"a\")");
  }

  @Test
  void unitThatDependsOnItselfIsACycleOfOne() {
    repo.unit("solo", dependency("me", "${get_terragrunt_dir()}"));
    String head = repo.commit("self dependency");

    DependencyCycle cycle = catchThrowableOfType(DependencyCycle.class, () -> allUnits(repo, head));

    assertThat(cycle.cycle()).containsExactly("solo", "solo");
    assertThat(cycle.getMessage())
        .contains("solo -> solo: solo/terragrunt.hcl:2 (dependency \"me\")");
  }

  @Test
  void dependencyOnADirectoryWithoutTerragruntHclIsAnErrorNamingFileAndLine() {
    repo.write("modules/vpc/main.tf", "");
    repo.unit("app", "\n" + dependency("vpc", "../modules/vpc"));
    String head = repo.commit("depends on a module");

    assertThatThrownBy(() -> allUnits(repo, head))
        .isInstanceOf(InvalidTerragruntConfig.class)
        .hasMessage(
            "app/terragrunt.hcl:3 (dependency \"vpc\"): depends on 'modules/vpc', which is a"
                + " directory with no terragrunt.hcl");
  }

  @Test
  void dependencyOnAPathThatDoesNotExistIsAnErrorNamingFileAndLine() {
    repo.unit("app", "dependencies {\n  paths = [\"../nowhere\"]\n}\n");
    String head = repo.commit("depends on nothing");

    assertThatThrownBy(() -> allUnits(repo, head))
        .isInstanceOf(InvalidTerragruntConfig.class)
        .hasMessage(
            "app/terragrunt.hcl:2 (dependencies.paths): depends on 'nowhere', which does not exist");
  }

  @Test
  void dependencyThatClimbsOutOfTheRepositoryIsAnError() {
    repo.unit("app", dependency("escape", "../../../../etc"));
    String head = repo.commit("escape");

    assertThatThrownBy(() -> allUnits(repo, head))
        .isInstanceOf(InvalidTerragruntConfig.class)
        .hasMessage(
            "app/terragrunt.hcl:2: dependency \"escape\": '../../../../etc' is outside the"
                + " repository");
  }

  @Test
  void dependencyPathThatCannotBeKnownNamesItsLocationOnceRelativeToTheRepository() {
    repo.unit("app", "dependency \"x\" {\n  config_path = run_cmd(\"echo\", \"../vpc\")\n}\n");
    String head = repo.commit("a path from a command");

    assertThatThrownBy(() -> allUnits(repo, head))
        .isInstanceOf(InvalidTerragruntConfig.class)
        .hasMessage(
            "app/terragrunt.hcl:2: dependency \"x\": the path cannot be worked out: run_cmd() is"
                + " never called by a livegate scan; its value is not known");
  }

  @Test
  void dependencyPathUnknownBecauseOfALocalElsewhereNamesWhereThatLocalIs() {
    repo.unit(
        "app",
        "locals {\n  dir = get_env(\"VPC_DIR\")\n}\n"
            + "dependency \"x\" {\n  config_path = local.dir\n}\n");
    String head = repo.commit("a path from the environment");

    assertThatThrownBy(() -> allUnits(repo, head))
        .isInstanceOf(InvalidTerragruntConfig.class)
        .hasMessage(
            "app/terragrunt.hcl:5: dependency \"x\": the path cannot be worked out: line 2: get_env():"
                + " VPC_DIR is not set and has no default");
  }

  @Test
  void unitWithTwoBadDependenciesIsTwoProblemsEachOnItsOwnLine() {
    repo.unit("fine", "");
    repo.unit("app", dependency("x", "../gone") + dependency("y", "../missing"));
    String head = repo.commit("two bad dependencies");

    InvalidTerragruntConfig error =
        catchThrowableOfType(InvalidTerragruntConfig.class, () -> allUnits(repo, head));

    assertThat(error.getMessage())
        .isEqualTo(
            "2 problems in the live repository:\n"
                + "  app/terragrunt.hcl:2 (dependency \"x\"): depends on 'gone', which does not"
                + " exist\n"
                + "  app/terragrunt.hcl:5 (dependency \"y\"): depends on 'missing', which does not"
                + " exist");
  }

  @Test
  void everyBrokenUnitIsReportedInOneMessage() {
    repo.unit("fine", "");
    repo.unit("brace", "dependency \"x\" {\n  config_path = \"../fine\"\n");
    repo.unit("string", "locals {\n  a = \"open\n}\n");
    repo.unit("heredoc", "locals {\n  a = <<EOF\n  never ends\n}\n");
    repo.unit("empty", "dependency \"x\" {\n  config_path =\n}\n");
    repo.unit("missing", "\n" + dependency("x", "../gone"));
    String head = repo.commit("five broken units");

    InvalidTerragruntConfig error =
        catchThrowableOfType(InvalidTerragruntConfig.class, () -> allUnits(repo, head));

    assertThat(error.getMessage())
        .startsWith("5 problems in the live repository:")
        .contains("brace/terragrunt.hcl:1: '{' of block 'dependency' is never closed")
        .contains("string/terragrunt.hcl:2:7: string is not terminated")
        .contains("heredoc/terragrunt.hcl:2:7: heredoc <<EOF is never terminated")
        .contains("empty/terragrunt.hcl:2:3: attribute 'config_path' has no value")
        .contains("missing/terragrunt.hcl:3 (dependency \"x\"): depends on 'gone'");
  }

  @Test
  void brokenFileThatSeveralUnitsIncludeIsReportedOnceNamingTheUnitsItStops() {
    repo.write("_envcommon/app.hcl", "dependency \"vpc\" {\n  config_path = \"../vpc\"\n}\n}\n");
    repo.unit("dev/app", "include \"envcommon\" {\n  path = \"../../_envcommon/app.hcl\"\n}\n");
    repo.unit("prod/app", "include \"envcommon\" {\n  path = \"../../_envcommon/app.hcl\"\n}\n");
    String head = repo.commit("broken envcommon");

    assertThatThrownBy(() -> allUnits(repo, head))
        .isInstanceOf(InvalidTerragruntConfig.class)
        .hasMessage(
            "_envcommon/app.hcl:4:1: unexpected '}' with nothing open (units dev/app, prod/app)");
  }

  @Test
  void unitNamesWithSpacesQuotesShellCharactersAndUnicodeRoundTrip() {
    List<String> names =
        List.of(
            "odd/with space",
            "odd/quo\"te",
            "odd/$(touch pwned)",
            "odd/`touch pwned`",
            "odd/semi;colon && rm -rf x",
            "odd/ünïcødé/日本");
    StringBuilder consumer = new StringBuilder();
    for (int i = 0; i < names.size(); i++) {
      repo.unit(names.get(i), "");
      String relative = "../" + names.get(i).substring("odd/".length()).replace("\"", "\\\"");
      consumer.append(dependency("d" + i, relative));
    }
    repo.unit("odd/consumer", consumer.toString());
    repo.unit(
        "odd/日本の消費者", dependency("quote", "../quo\\\"te") + dependency("jp", "../ünïcødé/日本"));
    String base = repo.commit("odd names");
    names.forEach(name -> repo.touch(name + "/main.tf"));

    DeployStack stack = graphScan(repo, base, repo.commit("change every odd unit"));

    List<String> expected = new ArrayList<>(names);
    expected.add("odd/consumer");
    expected.add("odd/日本の消費者");
    assertThat(units(stack)).containsExactlyInAnyOrderElementsOf(expected);
    assertThat(execution(stack, "odd/consumer").dependsOn())
        .containsExactlyInAnyOrderElementsOf(names);
    assertThat(execution(stack, "odd/日本の消費者").dependsOn())
        .containsExactly("odd/quo\"te", "odd/ünïcødé/日本");
    assertThat(execution(stack, "odd/ünïcødé/日本").reasons())
        .containsExactly(Reason.changedFile("odd/ünïcødé/日本/main.tf"));
    assertThat(dir.resolve("pwned")).doesNotExist();
    assertThat(dir.resolve("odd/pwned")).doesNotExist();
  }

  @Test
  void runCmdInLocalsAndInputsIsNeverExecutedAndDoesNotBreakTheScan() throws Exception {
    Path marker = Path.of("/tmp", "pwned-" + UUID.randomUUID());
    String touch = "run_cmd(\"touch\", \"" + marker + "\")";
    repo.unit("vpc", "");
    repo.unit(
        "app",
        "locals {\n  stamp = "
            + touch
            + "\n  quiet = run_cmd(\"--terragrunt-quiet\", \"sh\", \"-c\", \"touch "
            + marker
            + "\")\n}\n"
            + dependency("vpc", "../vpc")
            + "inputs = {\n  stamp = local.stamp\n  again = "
            + touch
            + "\n}\n");
    String base = repo.commit("run_cmd");
    repo.touch("vpc/main.tf");

    DeployStack stack = graphScan(repo, base, repo.commit("change vpc"));

    assertThat(units(stack)).containsExactly("vpc", "app");
    assertThat(marker).doesNotExist();
    Files.deleteIfExists(marker);
  }

  @Test
  void runCmdInAConfigPathIsAnErrorAndIsNotExecuted() {
    Path marker = Path.of("/tmp", "pwned-" + UUID.randomUUID());
    repo.unit("app", "\n" + dependency("vpc", "${run_cmd(\"touch\", \"" + marker + "\")}"));
    String head = repo.commit("run_cmd in a config path");

    assertThatThrownBy(() -> allUnits(repo, head))
        .isInstanceOf(InvalidTerragruntConfig.class)
        .hasMessageContaining("app/terragrunt.hcl:3: dependency \"vpc\"")
        .hasMessageContaining("run_cmd() is never called by a livegate scan");
    assertThat(marker).doesNotExist();
  }

  @Test
  void fileAndReadTerragruntConfigCannotReadOutsideTheRepository() {
    repo.unit(
        "app",
        "locals {\n  passwd = file(\"/etc/passwd\")\n"
            + "  other = read_terragrunt_config(\"../../../../etc/hosts\")\n}\n"
            + dependency("x", "../${local.passwd}"));
    String head = repo.commit("read host files");

    assertThatThrownBy(() -> allUnits(repo, head))
        .isInstanceOf(LivegateException.class)
        .hasMessage(
            "app/terragrunt.hcl:6: dependency \"x\": the path cannot be worked out: line 2: file():"
                + " '/etc/passwd' does not exist")
        .hasMessageNotContaining("root:");
  }
}
