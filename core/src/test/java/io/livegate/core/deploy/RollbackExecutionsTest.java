package io.livegate.core.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import io.livegate.core.runner.RunnerArgv;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class RollbackExecutionsTest {
  private static final String SUBNET = "module.network.module.subnets.aws_subnet.this[\"a b\"]";

  private static Execution execution(
      long id, String unit, int layer, Map<Long, String> dependsOn, List<String> newResources) {
    return execution(id, unit, layer, dependsOn, newResources, false);
  }

  private static Execution execution(
      long id,
      String unit,
      int layer,
      Map<Long, String> dependsOn,
      List<String> newResources,
      boolean rollback) {
    return execution(id, unit, layer, dependsOn, newResources, rollback, false);
  }

  private static Execution execution(
      long id,
      String unit,
      int layer,
      Map<Long, String> dependsOn,
      List<String> newResources,
      boolean rollback,
      boolean destroy) {
    ExecutionSpec spec =
        new ExecutionSpec(
            unit,
            "dev",
            layer,
            List.copyOf(dependsOn.values()),
            List.of(),
            List.of(),
            List.of("alice", "bob"),
            2,
            1,
            "arn:aws:iam::1:role/plan",
            "arn:aws:iam::1:role/apply",
            rollback,
            List.of(),
            destroy);
    return new Execution(
        id,
        1,
        ExecutionNames.of(1, unit, rollback),
        spec,
        ExecutionStatus.SUCCEEDED,
        List.copyOf(dependsOn.keySet()),
        null,
        null,
        null,
        newResources,
        null,
        Instant.EPOCH,
        Instant.EPOCH,
        Instant.EPOCH);
  }

  /**
   * global, then baz and doo on global, bar on baz, foo on bar. Every unit but baz created
   * resources of a new provider.
   */
  private static final List<Execution> REFERENCE =
      List.of(
          execution(1, "global", 0, Map.of(), List.of(SUBNET, "terraform_data.a")),
          execution(2, "baz", 1, Map.of(1L, "global"), List.of()),
          execution(3, "doo", 1, Map.of(1L, "global"), List.of("terraform_data.doo")),
          execution(4, "bar", 2, Map.of(2L, "baz"), List.of("terraform_data.bar")),
          execution(5, "foo", 3, Map.of(4L, "bar"), List.of("terraform_data.foo")));

  private static Map<String, ExecutionSpec> byUnit(List<ExecutionSpec> specs) {
    return specs.stream().collect(Collectors.toMap(ExecutionSpec::unit, Function.identity()));
  }

  @Test
  void theDestroyOfADeletedUnitIsNeverRolledBackWhateverItRecorded() {
    List<Execution> executions =
        List.of(
            execution(1, "old/queue", 0, Map.of(), List.of("terraform_data.queue"), false, true),
            execution(2, "app", 1, Map.of(1L, "old/queue"), List.of("terraform_data.app")));

    assertThat(RollbackExecutions.rollbacks(executions, RunnerArgv.TERRAFORM))
        .extracting(ExecutionSpec::unit)
        .containsExactly("app");
  }

  @Test
  void rollbacksRunInReverseOrderThroughUnitsWithoutARollback() {
    Map<String, ExecutionSpec> rollbacks =
        byUnit(RollbackExecutions.rollbacks(REFERENCE, RunnerArgv.TERRAFORM));

    assertThat(rollbacks.keySet()).containsExactlyInAnyOrder("global", "doo", "bar", "foo");
    assertThat(rollbacks.get("foo").dependsOn()).isEmpty();
    assertThat(rollbacks.get("bar").dependsOn()).containsExactly("foo");
    assertThat(rollbacks.get("doo").dependsOn()).isEmpty();
    // global waits for bar and foo through baz, which has nothing to destroy.
    assertThat(rollbacks.get("global").dependsOn()).containsExactly("bar", "doo", "foo");
    assertThat(rollbacks).allSatisfy((unit, spec) -> assertThat(spec.rollback()).isTrue());
    assertThat(rollbacks.get("foo").layer()).isZero();
    assertThat(rollbacks.get("global").layer()).isEqualTo(3);
  }

  @Test
  void rollbacksDestroyExactlyTheNewResourcesByTheirFullModuleAddresses() {
    ExecutionSpec global =
        byUnit(RollbackExecutions.rollbacks(REFERENCE, RunnerArgv.TERRAFORM)).get("global");

    assertThat(global.destroyTargets()).containsExactly(SUBNET, "terraform_data.a");
    assertThat(global.planCommands().get(1))
        .containsSubsequence("-destroy", "-target=" + SUBNET, "-target=terraform_data.a");
    assertThat(global.voters()).containsExactly("alice", "bob");
    assertThat(global.minApprovals()).isEqualTo(2);
    assertThat(global.applyRole()).isEqualTo("arn:aws:iam::1:role/apply");
  }

  @Test
  void nothingCreatedMeansNothingToRollBack() {
    List<Execution> nothingNew =
        List.of(
            execution(1, "global", 0, Map.of(), List.of()),
            execution(2, "global", 0, Map.of(), List.of("terraform_data.a"), true));

    assertThat(RollbackExecutions.rollbacks(nothingNew, RunnerArgv.TERRAFORM)).isEmpty();
  }
}
