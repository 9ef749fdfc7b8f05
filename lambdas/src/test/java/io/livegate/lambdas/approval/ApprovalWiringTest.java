package io.livegate.lambdas.approval;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.livegate.core.LivegateException;
import org.junit.jupiter.api.Test;

class ApprovalWiringTest {
  @Test
  void aVoteLinkKeyShorterThan32BytesNamesItsSecret() {
    assertThatThrownBy(
            () ->
                ApprovalWiring.voteLinks(
                    "too short", "arn:aws:secretsmanager:eu-west-1:123456789012:secret:vote-key"))
        .isInstanceOf(LivegateException.class)
        .hasMessage(
            "the vote-link key in arn:aws:secretsmanager:eu-west-1:123456789012:secret:vote-key"
                + " is shorter than 32 bytes");
  }
}
