package io.livegate.scan;

import static io.livegate.scan.testing.ReferenceScenario.dependency;
import static io.livegate.scan.testing.Scans.execution;
import static io.livegate.scan.testing.Scans.graphScan;
import static io.livegate.scan.testing.Scans.units;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.livegate.core.account.Account;
import io.livegate.core.account.Accounts;
import io.livegate.core.stack.AccountOrder;
import io.livegate.core.stack.DeletedUnit;
import io.livegate.core.stack.DeployStack;
import io.livegate.core.stack.Reason;
import io.livegate.scan.terragrunt.InvalidTerragruntConfig;
import io.livegate.scan.testing.TestRepo;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Files and units that are renamed, moved or deleted between base and head. */
class RenamesAndDeletionsTest {
  private static final Reason.Kind DELETED_FILE = Reason.Kind.DELETED_FILE;

  @TempDir Path dir;
  private TestRepo repo;
  private String base;

  /** dev/app depends on dev/vpc; dev/cache and dev/queue stand alone. */
  @BeforeEach
  void createRepo() {
    repo = TestRepo.create(dir);
    unit("dev/vpc", "");
    unit("dev/app", dependency("vpc", "../vpc"));
    unit("dev/cache", "inputs = {\n  engine = \"redis\"\n}\n");
    repo.write("dev/cache/variables.tf", "variable \"engine\" {}\n");
    unit("dev/queue", "");
    base = repo.commit("live repository");
  }

  @AfterEach
  void closeRepo() {
    repo.close();
  }

  private void unit(String id, String config) {
    repo.write(id + "/terragrunt.hcl", config);
    repo.write(
        id + "/main.tf", "resource \"terraform_data\" \"" + id.replace('/', '_') + "\" {}\n");
  }

  private DeployStack scanAfter(String message) {
    return graphScan(repo, base, repo.commit(message));
  }

  @Test
  void renamingAFileInsideAUnitChangesTheUnitWithBothPathsAsReasons() {
    repo.move("dev/vpc/main.tf", "dev/vpc/network.tf");

    DeployStack stack = scanAfter("rename a file");

    assertThat(units(stack)).containsExactly("dev/vpc", "dev/app");
    assertThat(execution(stack, "dev/vpc").reasons())
        .containsExactlyInAnyOrder(
            Reason.changedFile("dev/vpc/main.tf"), Reason.changedFile("dev/vpc/network.tf"));
    assertThat(stack.deleted()).isEmpty();
  }

  @Test
  void movingAWholeUnitReportsTheOldIdAsDeletedAndTheNewIdAsAnExecution() {
    repo.move("dev/cache", "dev/data/cache");

    DeployStack stack = scanAfter("move the cache");

    assertThat(units(stack)).containsExactly("dev/data/cache");
    assertThat(execution(stack, "dev/data/cache").reasons())
        .containsExactlyInAnyOrder(
            Reason.changedFile("dev/data/cache/main.tf"),
            Reason.changedFile("dev/data/cache/terragrunt.hcl"),
            Reason.changedFile("dev/data/cache/variables.tf"));
    assertThat(stack.deleted())
        .containsExactly(
            new DeletedUnit(
                "dev/cache",
                "default",
                List.of(
                    new Reason(DELETED_FILE, "dev/cache/main.tf", null),
                    new Reason(DELETED_FILE, "dev/cache/terragrunt.hcl", null),
                    new Reason(DELETED_FILE, "dev/cache/variables.tf", null)),
                List.of(),
                List.of(),
                true));
  }

  @Test
  void movingAUnitThatOthersDependOnTogetherWithTheirConfigsDeploysThemAtTheNewPath() {
    repo.move("dev/vpc", "dev/network/vpc");
    repo.write("dev/app/terragrunt.hcl", dependency("vpc", "../network/vpc"));

    DeployStack stack = scanAfter("move the vpc");

    assertThat(units(stack)).containsExactly("dev/network/vpc", "dev/app");
    assertThat(execution(stack, "dev/app").dependsOn()).containsExactly("dev/network/vpc");
    assertThat(stack.deleted()).extracting(DeletedUnit::unit).containsExactly("dev/vpc");
  }

  @Test
  void deletingAUnitThatNothingDependsOnReportsItDeletedAndDeploysNothing() {
    repo.delete("dev/queue");
    Accounts accounts =
        Accounts.of(
            List.of(
                Account.of("shared", "shared", List.of()), Account.of("dev", "dev", List.of())));

    DeployStack stack = graphScan(repo, base, repo.commit("delete the queue"), accounts, Map.of());

    assertThat(stack.executions()).isEmpty();
    assertThat(stack.deleted())
        .containsExactly(
            new DeletedUnit(
                "dev/queue",
                "dev",
                List.of(
                    new Reason(DELETED_FILE, "dev/queue/main.tf", null),
                    new Reason(DELETED_FILE, "dev/queue/terragrunt.hcl", null)),
                List.of(),
                List.of(),
                true));
    assertThat(stack.accounts()).extracting(AccountOrder::name).containsExactly("dev");
  }

  @Test
  void deletingOnlyTheTerragruntHclOfAUnitReportsTheUnitDeleted() {
    repo.delete("dev/queue/terragrunt.hcl");

    DeployStack stack = scanAfter("queue is no longer a unit");

    assertThat(stack.executions()).isEmpty();
    assertThat(stack.deleted())
        .extracting(DeletedUnit::unit, DeletedUnit::reasons)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple(
                "dev/queue", List.of(new Reason(DELETED_FILE, "dev/queue/terragrunt.hcl", null))));
  }

  @Test
  void deletingAUnitThatAnotherUnitStillDependsOnIsAnErrorNamingTheDependentsFileAndLine() {
    repo.delete("dev/vpc");
    String head = repo.commit("delete the vpc");

    assertThatThrownBy(() -> graphScan(repo, base, head))
        .isInstanceOf(InvalidTerragruntConfig.class)
        .hasMessage(
            "dev/app/terragrunt.hcl:2 (dependency \"vpc\"): depends on 'dev/vpc', which does not"
                + " exist");
  }

  @Test
  void deletingADependencyTogetherWithTheDependencyOnItIsFine() {
    repo.delete("dev/vpc");
    repo.write("dev/app/terragrunt.hcl", "");

    DeployStack stack = scanAfter("retire the vpc");

    assertThat(units(stack)).containsExactly("dev/app");
    assertThat(stack.deleted()).extracting(DeletedUnit::unit).containsExactly("dev/vpc");
    assertThat(stack.deleted().get(0).formerDependents())
        .as("dev/app depended on dev/vpc at the base: its apply waits for the destroy")
        .containsExactly("dev/app");
  }

  @Test
  void deletingAUnitWithItsDependentRecordsWhichDeletedUnitEachDependedOnAtTheBase() {
    repo.delete("dev/vpc");
    repo.delete("dev/app");

    DeployStack stack = scanAfter("retire the vpc and its app");

    assertThat(stack.executions()).isEmpty();
    assertThat(stack.deleted())
        .extracting(
            DeletedUnit::unit,
            DeletedUnit::dependsOn,
            DeletedUnit::formerDependents,
            DeletedUnit::destroy)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple("dev/app", List.of("dev/vpc"), List.of(), true),
            org.assertj.core.groups.Tuple.tuple("dev/vpc", List.of(), List.of(), true));
  }

  @Test
  void anAccountWithDestroyDeletedFalseOnlyReportsItsDeletedUnits() {
    repo.delete("dev/vpc");
    repo.delete("dev/app");
    Accounts accounts =
        Accounts.of(
            List.of(new Account("dev", "dev", List.of(), List.of(), 1, 1, null, null, false)));

    DeployStack stack = graphScan(repo, base, repo.commit("retire them"), accounts, Map.of());

    assertThat(stack.deleted())
        .extracting(DeletedUnit::unit, DeletedUnit::destroy)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple("dev/app", false),
            org.assertj.core.groups.Tuple.tuple("dev/vpc", false));
  }
}
