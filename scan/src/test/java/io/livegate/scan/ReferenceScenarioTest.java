package io.livegate.scan;

import static io.livegate.scan.testing.ReferenceScenario.DEV;
import static io.livegate.scan.testing.ReferenceScenario.SHARED;
import static io.livegate.scan.testing.ReferenceScenario.unit;
import static org.assertj.core.api.Assertions.assertThat;

import io.livegate.core.ProgressListener;
import io.livegate.core.stack.AccountOrder;
import io.livegate.core.stack.DeployStack;
import io.livegate.core.stack.PlannedExecution;
import io.livegate.core.stack.Reason;
import io.livegate.scan.testing.ReferenceScenario;
import io.livegate.scan.testing.TestRepo;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ReferenceScenarioTest {
  @TempDir Path dir;
  private TestRepo repo;
  private String base;

  @BeforeEach
  void createRepo() {
    repo = ReferenceScenario.write(TestRepo.create(dir));
    base = repo.commit("reference scenario");
  }

  private DeployStack scanAfter(String message) {
    String head = repo.commit(message);
    return new GraphScan(ProgressListener.silent())
        .run(
            ScanCommand.builder(dir, ReferenceScenario.accounts())
                .base(base)
                .head(head)
                .parallelism(2)
                .build());
  }

  private static List<String> units(DeployStack stack) {
    return stack.executions().stream().map(PlannedExecution::unit).toList();
  }

  private static int layerOf(DeployStack stack, String unit) {
    return stack.executions().stream()
        .filter(e -> e.unit().equals(unit))
        .findFirst()
        .orElseThrow()
        .layer();
  }

  @Test
  void changeInGlobalDeploysTheWholeAccountInDependencyOrder() {
    repo.touch(DEV + "/global/main.tf");

    DeployStack stack = scanAfter("change dev global");

    assertThat(units(stack))
        .containsExactly(
            unit(DEV, "global"),
            unit(DEV, "baz"),
            unit(DEV, "doo"),
            unit(DEV, "bar"),
            unit(DEV, "foo"));
    assertThat(layerOf(stack, unit(DEV, "global"))).isZero();
    assertThat(layerOf(stack, unit(DEV, "baz"))).isEqualTo(1);
    assertThat(layerOf(stack, unit(DEV, "doo"))).isEqualTo(1);
    assertThat(layerOf(stack, unit(DEV, "bar"))).isEqualTo(2);
    assertThat(layerOf(stack, unit(DEV, "foo"))).isEqualTo(3);
    PlannedExecution bar = stack.executions().get(3);
    assertThat(bar.dependsOn()).containsExactly(unit(DEV, "global"), unit(DEV, "baz"));
    assertThat(bar.reasons())
        .containsExactly(Reason.dependsOn(unit(DEV, "global")), Reason.dependsOn(unit(DEV, "baz")));
    assertThat(stack.executions().get(0).reasons())
        .containsExactly(Reason.changedFile(DEV + "/global/main.tf"));
  }

  @Test
  void changeInFooAloneDeploysOnlyFoo() {
    repo.touch(DEV + "/us-west-2/env-one/foo/terragrunt.hcl");

    assertThat(units(scanAfter("change foo"))).containsExactly(unit(DEV, "foo"));
  }

  @Test
  void changeInBazDeploysBazBarAndFoo() {
    repo.touch(DEV + "/us-west-2/env-one/baz/main.tf");

    DeployStack stack = scanAfter("change baz");

    assertThat(units(stack)).containsExactly(unit(DEV, "baz"), unit(DEV, "bar"), unit(DEV, "foo"));
    assertThat(stack.executions()).extracting(PlannedExecution::layer).containsExactly(0, 1, 2);
  }

  @Test
  void devAccountWaitsForEveryUnitOfSharedServices() {
    repo.touch(SHARED + "/global/main.tf").touch(DEV + "/global/main.tf");

    DeployStack stack = scanAfter("change both globals");

    int lastShared =
        stack.executions().stream()
            .filter(e -> e.account().equals("shared_services"))
            .mapToInt(PlannedExecution::layer)
            .max()
            .orElseThrow();
    int firstDev =
        stack.executions().stream()
            .filter(e -> e.account().equals("dev"))
            .mapToInt(PlannedExecution::layer)
            .min()
            .orElseThrow();
    assertThat(lastShared).isEqualTo(3);
    assertThat(firstDev).isEqualTo(4);
    assertThat(stack.accounts())
        .extracting(AccountOrder::name)
        .containsExactly("dev", "shared_services");
    assertThat(stack.accounts().get(0).dependsOn()).containsExactly("shared_services");
  }
}
