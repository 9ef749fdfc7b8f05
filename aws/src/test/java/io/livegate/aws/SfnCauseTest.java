package io.livegate.aws;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class SfnCauseTest {
  private static final String LONG = "a".repeat(SfnCause.MAX_LENGTH) + "the error";

  @Test
  void aShortCauseIsKeptWhole() {
    assertThat(SfnCause.head("aborted: b failed")).isEqualTo("aborted: b failed");
    assertThat(SfnCause.tail("aborted: b failed")).isEqualTo("aborted: b failed");
  }

  @Test
  void aLongCauseKeepsItsBeginningOrItsEndWithinTheLimit() {
    assertThat(SfnCause.head(LONG)).hasSize(SfnCause.MAX_LENGTH).doesNotContain("the error");
    assertThat(SfnCause.tail(LONG)).hasSize(SfnCause.MAX_LENGTH).endsWith("the error");
  }
}
