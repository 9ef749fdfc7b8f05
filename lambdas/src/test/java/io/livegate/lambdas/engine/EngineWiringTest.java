package io.livegate.lambdas.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.livegate.core.LivegateException;
import io.livegate.core.deploy.FailurePolicy;
import java.util.Map;
import org.junit.jupiter.api.Test;

class EngineWiringTest {
  @Test
  void aSettingWithOneOfItsValuesIsReadInAnyCase() {
    assertThat(
            EngineWiring.enumValue(
                FailurePolicy.class,
                Map.of(EngineWiring.FAILURE_POLICY, "abort_all"),
                EngineWiring.FAILURE_POLICY,
                FailurePolicy.ABORT_DEPENDENTS))
        .isEqualTo(FailurePolicy.ABORT_ALL);
    assertThat(
            EngineWiring.enumValue(
                FailurePolicy.class,
                Map.of(),
                EngineWiring.FAILURE_POLICY,
                FailurePolicy.ABORT_DEPENDENTS))
        .isEqualTo(FailurePolicy.ABORT_DEPENDENTS);
  }

  @Test
  void aSettingWithAnotherValueNamesTheVariableAndItsValues() {
    assertThatThrownBy(
            () ->
                EngineWiring.enumValue(
                    FailurePolicy.class,
                    Map.of(EngineWiring.FAILURE_POLICY, "sometimes"),
                    EngineWiring.FAILURE_POLICY,
                    FailurePolicy.ABORT_DEPENDENTS))
        .isInstanceOf(LivegateException.class)
        .hasMessage(
            "LIVEGATE_FAILURE_POLICY must be one of [abort_dependents, abort_all], not sometimes");
  }

  @Test
  void wiringWithoutTheRegionNamesIt() {
    assertThatThrownBy(() -> EngineWiring.fromEnvironment(Map.of()))
        .isInstanceOf(LivegateException.class)
        .hasMessage("the environment variable AWS_REGION is not set");
  }
}
