package io.livegate.core.drift;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import io.livegate.core.LivegateException;
import io.livegate.core.stack.DeployStack;
import io.livegate.core.stack.PlannedExecution;
import io.livegate.core.stack.Reason;
import io.livegate.core.stack.ScanMode;
import java.util.List;
import org.junit.jupiter.api.Test;

class ReconcileStackTest {
  private static final String HEAD = "e3f689e717583e73f68f65781dd4b8304e89f67c";

  /**
   * network <- app <- web, and a lone unit: every unit of the head, as a scan with --all has it.
   */
  private static DeployStack everyUnit() {
    Reason all = new Reason(Reason.Kind.ALL_UNITS, null, null);
    return new DeployStack(
        ScanMode.GRAPH,
        null,
        HEAD,
        List.of(),
        List.of(
            new PlannedExecution("lone", "default", List.of(), 0, List.of(all)),
            new PlannedExecution("network", "default", List.of(), 0, List.of(all)),
            new PlannedExecution("app", "default", List.of("network"), 1, List.of(all)),
            new PlannedExecution("web", "default", List.of("app"), 2, List.of(all))),
        List.of(),
        List.of(),
        List.of());
  }

  private static DriftReport drifted(String... units) {
    return new DriftReport(
        HEAD,
        4,
        java.util.Arrays.stream(units)
            .map(
                unit ->
                    new DriftReport.DriftedUnit(
                        unit, "default", List.of("terraform_data.this: update")))
            .toList(),
        List.of());
  }

  @Test
  void onlyTheDriftedUnitsAreDeployedNotTheirDependents() {
    DeployStack stack = ReconcileStack.of(everyUnit(), drifted("app"));

    assertThat(stack.executions())
        .extracting(PlannedExecution::unit, PlannedExecution::dependsOn, PlannedExecution::layer)
        .containsExactly(tuple("app", List.of(), 0));
    assertThat(stack.executions().get(0).reasons())
        .extracting(Reason::kind)
        .containsExactly(Reason.Kind.PLAN_HAS_CHANGES);
    assertThat(stack.base()).isEqualTo(HEAD);
    assertThat(stack.head()).isEqualTo(HEAD);
  }

  @Test
  void aDriftedUnitWaitsForADriftedUnitItDependsOnEvenThroughAUnitInSync() {
    DeployStack stack = ReconcileStack.of(everyUnit(), drifted("web", "network", "lone"));

    assertThat(stack.executions())
        .extracting(PlannedExecution::unit, PlannedExecution::dependsOn, PlannedExecution::layer)
        .containsExactly(
            tuple("lone", List.of(), 0),
            tuple("network", List.of(), 0),
            tuple("web", List.of("network"), 1));
  }

  @Test
  void aDriftedUnitThatTheScanDoesNotHaveIsAnError() {
    assertThatThrownBy(() -> ReconcileStack.of(everyUnit(), drifted("gone")))
        .isInstanceOf(LivegateException.class)
        .hasMessageContaining("[gone]");
  }

  @Test
  void aReportOfAnotherCommitIsAnError() {
    DriftReport other = new DriftReport("0".repeat(40), 4, List.of(), List.of());

    assertThatThrownBy(() -> ReconcileStack.of(everyUnit(), other))
        .isInstanceOf(LivegateException.class)
        .hasMessageContaining("scanned at " + HEAD);
  }
}
