package io.livegate.aws;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.livegate.core.LivegateException;
import io.livegate.core.deploy.FailurePolicy;
import io.livegate.statemachine.RuntimeContract;
import java.util.Map;
import org.junit.jupiter.api.Test;

class AwsEngineTest {
  @Test
  void aSettingWithOneOfItsValuesIsReadInAnyCase() {
    assertThat(
            AwsEngine.enumValue(
                FailurePolicy.class,
                Map.of(RuntimeContract.Engine.FAILURE_POLICY, "abort_all"),
                RuntimeContract.Engine.FAILURE_POLICY,
                FailurePolicy.ABORT_DEPENDENTS))
        .isEqualTo(FailurePolicy.ABORT_ALL);
    assertThat(
            AwsEngine.enumValue(
                FailurePolicy.class,
                Map.of(),
                RuntimeContract.Engine.FAILURE_POLICY,
                FailurePolicy.ABORT_DEPENDENTS))
        .isEqualTo(FailurePolicy.ABORT_DEPENDENTS);
  }

  @Test
  void aSettingWithAnotherValueNamesTheVariableAndItsValues() {
    assertThatThrownBy(
            () ->
                AwsEngine.enumValue(
                    FailurePolicy.class,
                    Map.of(RuntimeContract.Engine.FAILURE_POLICY, "sometimes"),
                    RuntimeContract.Engine.FAILURE_POLICY,
                    FailurePolicy.ABORT_DEPENDENTS))
        .isInstanceOf(LivegateException.class)
        .hasMessage(
            "LIVEGATE_FAILURE_POLICY must be one of [abort_dependents, abort_all], not sometimes");
  }

  @Test
  void wiringWithoutTheRegionNamesIt() {
    assertThatThrownBy(() -> AwsEngine.fromEnvironment(Map.of()))
        .isInstanceOf(LivegateException.class)
        .hasMessage("the environment variable AWS_REGION is not set");
  }
}
