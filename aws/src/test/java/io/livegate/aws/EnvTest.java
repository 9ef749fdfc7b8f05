package io.livegate.aws;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.livegate.core.LivegateException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class EnvTest {
  private static final String NAME = "LIVEGATE_SOMETHING";

  @Test
  void aMissingOrBlankRequiredVariableIsNamed() {
    for (Map<String, String> environment : List.of(Map.<String, String>of(), Map.of(NAME, "  "))) {
      assertThatThrownBy(() -> Env.required(environment, NAME))
          .isInstanceOf(LivegateException.class)
          .hasMessage("the environment variable LIVEGATE_SOMETHING is not set");
    }
    assertThat(Env.required(Map.of(NAME, "value"), NAME)).isEqualTo("value");
  }

  @Test
  void aMissingOrBlankOptionalVariableFallsBack() {
    assertThat(Env.optional(Map.of(), NAME, "fallback")).isEqualTo("fallback");
    assertThat(Env.optional(Map.of(NAME, ""), NAME, "fallback")).isEqualTo("fallback");
    assertThat(Env.optional(Map.of(NAME, "set"), NAME, "fallback")).isEqualTo("set");
  }

  @Test
  void aDurationIsIsoEightySixOhOneAndPositive() {
    assertThat(Env.duration(Map.of(), NAME, Duration.ofDays(3))).isEqualTo(Duration.ofDays(3));
    assertThat(Env.duration(Map.of(NAME, "PT10M"), NAME, Duration.ofDays(3)))
        .isEqualTo(Duration.ofMinutes(10));
    assertThatThrownBy(() -> Env.duration(Map.of(NAME, "3 days"), NAME, Duration.ZERO))
        .isInstanceOf(LivegateException.class)
        .hasMessage(NAME + " must be an ISO-8601 duration such as P3D or PT10M, not 3 days");
    for (String value : List.of("PT0S", "-P1D")) {
      assertThatThrownBy(() -> Env.duration(Map.of(NAME, value), NAME, Duration.ZERO))
          .isInstanceOf(LivegateException.class)
          .hasMessage(NAME + " must be a positive duration, not " + value);
    }
  }

  @Test
  void aFlagIsTrueOrFalseAndNothingElse() {
    assertThat(Env.flag(Map.of(), NAME)).isFalse();
    assertThat(Env.flag(Map.of(NAME, "true"), NAME)).isTrue();
    assertThat(Env.flag(Map.of(NAME, "false"), NAME)).isFalse();
    assertThat(Env.flag(Map.of(), NAME, true)).isTrue();
    assertThat(Env.flag(Map.of(NAME, "false"), NAME, true)).isFalse();
    assertThatThrownBy(() -> Env.flag(Map.of(NAME, "yes"), NAME))
        .isInstanceOf(LivegateException.class)
        .hasMessage(NAME + " must be true or false, not yes");
  }
}
