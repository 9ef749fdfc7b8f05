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
 * A unit changes when any file its evaluation read, or tried to read and found missing, changes at
 * the head or at the base, whatever the file is called; so does any file of the directory where a
 * unit's terraform runs (here each unit's own).
 *
 * <p>The live repository is YAML-driven: each app decodes its environment's {@code env.yaml}, found
 * with {@code find_in_parent_folders()}, and its own {@code config.yaml}, and falls back to no
 * overrides when the environment's {@code overrides.yaml} is missing. The database renders a policy
 * template and decrypts a sops file; the app depends on it.
 */
class ChangeTrackingTest {
  private static final String APP =
      "locals {\n"
          + "  env       = yamldecode(file(find_in_parent_folders(\"env.yaml\")))\n"
          + "  config    = yamldecode(file(\"config.yaml\"))\n"
          + "  overrides = try(yamldecode(file(\"${get_terragrunt_dir()}/../../overrides.yaml\")),"
          + " {})\n"
          + "}\n"
          + dependency("db", "../db")
          + "inputs = merge(local.env, local.config, local.overrides)\n";
  private static final String DB =
      "inputs = {\n"
          + "  policy = templatefile(\"${get_repo_root()}/templates/policy.json.tpl\","
          + " { env = \"x\" })\n"
          + "  secrets = sops_decrypt_file(\"secrets.enc.yaml\")\n"
          + "}\n";

  @TempDir Path dir;
  private TestRepo repo;
  private String base;

  @BeforeEach
  void createRepo() {
    repo = TestRepo.create(dir);
    repo.write("templates/policy.json.tpl", "{\"env\": \"${env}\"}\n");
    for (String env : new String[] {"dev", "prod"}) {
      repo.write(env + "/env.yaml", "name: " + env + "\n");
      repo.write(env + "/overrides.yaml", "size: large\n");
      repo.unit(env + "/eu/app", APP);
      repo.write(env + "/eu/app/config.yaml", "replicas: 2\n");
      repo.unit(env + "/eu/db", DB);
      repo.write(env + "/eu/db/secrets.enc.yaml", "password: ENC[AES256_GCM,data:abc]\n");
    }
    base = repo.commit("yaml-driven live repository");
  }

  @AfterEach
  void closeRepo() {
    repo.close();
  }

  private DeployStack scanAfter(String message) {
    return graphScan(repo, base, repo.commit(message));
  }

  @Test
  void changedYamlReadThroughFileAndYamldecodeChangesExactlyItsReaders() {
    repo.touch("dev/env.yaml");

    DeployStack stack = scanAfter("change dev's env.yaml");

    assertThat(units(stack)).containsExactly("dev/eu/app");
    assertThat(execution(stack, "dev/eu/app").reasons())
        .containsExactly(Reason.readsChangedFile("dev/env.yaml", "file"));
  }

  @Test
  void yamlInsideTheUnitThatItReadsChangesItThoughTheFilePatternDoesNotMatch() {
    repo.touch("prod/eu/app/config.yaml");

    DeployStack stack = scanAfter("change prod's app config");

    assertThat(units(stack)).containsExactly("prod/eu/app");
    assertThat(execution(stack, "prod/eu/app").reasons())
        .containsExactly(Reason.changedFile("prod/eu/app/config.yaml"));
  }

  @Test
  void deletingAFileTheUnitReadAtTheBaseChangesItThoughItNowFallsBackToADefault() {
    repo.delete("prod/overrides.yaml");

    DeployStack stack = scanAfter("drop prod's overrides");

    assertThat(units(stack)).containsExactly("prod/eu/app");
    assertThat(execution(stack, "prod/eu/app").reasons())
        .containsExactly(Reason.readsChangedFile("prod/overrides.yaml", "file"));
  }

  @Test
  void addingAFileTheUnitLookedForAndDidNotFindChangesIt() {
    repo.write("dev/eu/env.yaml", "name: dev-eu\n");

    DeployStack stack = scanAfter("a nearer env.yaml for dev/eu");

    assertThat(units(stack)).containsExactly("dev/eu/app");
    assertThat(execution(stack, "dev/eu/app").reasons())
        .containsExactly(Reason.readsChangedFile("dev/eu/env.yaml", "file"));
  }

  @Test
  void removingTheFileThatFindInParentFoldersFoundChangesTheUnit() {
    repo.delete("prod/env.yaml");
    repo.write("env.yaml", "name: default\n");

    DeployStack stack = scanAfter("one env.yaml for prod at the root");

    assertThat(units(stack)).containsExactly("prod/eu/app");
    assertThat(execution(stack, "prod/eu/app").reasons())
        .containsExactly(
            Reason.readsChangedFile("env.yaml", "file"),
            Reason.readsChangedFile("prod/env.yaml", "find_in_parent_folders"));
  }

  @Test
  void renamingAFileTheUnitReadChangesIt() {
    repo.move("dev/overrides.yaml", "dev/overrides.yaml.disabled");

    DeployStack stack = scanAfter("switch dev's overrides off");

    assertThat(units(stack)).containsExactly("dev/eu/app");
  }

  @Test
  void templateAndSopsFilesChangeTheUnitThatReadsThemAndItsDependents() {
    repo.touch("templates/policy.json.tpl");
    repo.write("dev/eu/db/secrets.enc.yaml", "password: ENC[AES256_GCM,data:def]\n");

    DeployStack stack = scanAfter("new policy and a rotated secret");

    assertThat(units(stack))
        .containsExactly("dev/eu/db", "prod/eu/db", "dev/eu/app", "prod/eu/app");
    assertThat(execution(stack, "dev/eu/db").reasons())
        .containsExactly(
            Reason.changedFile("dev/eu/db/secrets.enc.yaml"),
            Reason.readsChangedFile("templates/policy.json.tpl", "templatefile"));
    assertThat(execution(stack, "prod/eu/app").reasons())
        .containsExactly(Reason.dependsOn("prod/eu/db"));
  }

  @Test
  void terraformFileWhoseNameHoldsANewlineChangesItsUnit() {
    repo.write("dev/eu/db/odd\nname.tf", "locals {}\n");

    DeployStack stack = scanAfter("a file name with a newline");

    assertThat(units(stack)).containsExactly("dev/eu/db", "dev/eu/app");
    assertThat(execution(stack, "dev/eu/db").reasons())
        .containsExactly(Reason.changedFile("dev/eu/db/odd\nname.tf"));
  }

  @Test
  void fileOfAnyNameInTheDirectoryWhereAUnitsTerraformRunsChangesIt() {
    repo.write("dev/eu/db/README.md", "# db\n");

    assertThat(units(scanAfter("docs"))).containsExactly("dev/eu/db", "dev/eu/app");
  }
}
