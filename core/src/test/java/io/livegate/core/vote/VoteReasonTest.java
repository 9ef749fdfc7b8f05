package io.livegate.core.vote;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import org.junit.jupiter.api.Test;

class VoteReasonTest {
  @Test
  void aReasonIsKeptOnOneLineWithoutControlCharactersAndCutAtTheLimit() {
    assertThat(Vote.reason("  not now\r\nthe registry\u0007 is down  "))
        .isEqualTo("not now  the registry  is down");
    assertThat(Vote.reason("x".repeat(Vote.MAX_REASON + 50))).hasSize(Vote.MAX_REASON);
    assertThat(Vote.reason(null)).isEmpty();
  }

  @Test
  void aVoteWithoutAReasonHasAnEmptyOne() {
    assertThat(new Vote(1, "alice", Vote.Choice.REJECT, Instant.EPOCH).reason()).isEmpty();
  }
}
