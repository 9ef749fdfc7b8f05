package io.livegate.lambdas.trigger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.livegate.core.LivegateException;
import io.livegate.core.deploy.FailurePolicy;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TriggerWiringTest {
  @Test
  void aSettingWithOneOfItsValuesIsReadInAnyCase() {
    assertThat(
            TriggerWiring.enumValue(
                FailurePolicy.class,
                Map.of(TriggerWiring.FAILURE_POLICY, "abort_all"),
                TriggerWiring.FAILURE_POLICY,
                FailurePolicy.ABORT_DEPENDENTS))
        .isEqualTo(FailurePolicy.ABORT_ALL);
    assertThat(
            TriggerWiring.enumValue(
                FailurePolicy.class,
                Map.of(),
                TriggerWiring.FAILURE_POLICY,
                FailurePolicy.ABORT_DEPENDENTS))
        .isEqualTo(FailurePolicy.ABORT_DEPENDENTS);
  }

  @Test
  void aSettingWithAnotherValueNamesTheVariableAndItsValues() {
    assertThatThrownBy(
            () ->
                TriggerWiring.enumValue(
                    FailurePolicy.class,
                    Map.of(TriggerWiring.FAILURE_POLICY, "sometimes"),
                    TriggerWiring.FAILURE_POLICY,
                    FailurePolicy.ABORT_DEPENDENTS))
        .isInstanceOf(LivegateException.class)
        .hasMessage(
            "LIVEGATE_FAILURE_POLICY must be one of [abort_dependents, abort_all], not sometimes");
  }

  @Test
  void wiringWithoutTheRegionNamesIt() {
    assertThatThrownBy(() -> TriggerWiring.fromEnvironment(Map.of()))
        .isInstanceOf(LivegateException.class)
        .hasMessage("the environment variable AWS_REGION is not set");
  }
}
