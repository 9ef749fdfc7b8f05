package io.livegate.core.vote;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** The one reader of vote-link queries and confirm-form bodies that both runtimes use. */
class VoteDeskFormTest {
  @Test
  void namesAndValuesAreUrlDecoded() {
    assertThat(VoteDesk.form("t=a%2Bb%3D%3D&x=one+two"))
        .containsEntry("t", "a+b==")
        .containsEntry("x", "one two")
        .hasSize(2);
  }

  @Test
  void theFirstValueOfARepeatedNameWins() {
    assertThat(VoteDesk.form("t=first&t=second")).containsExactly(Map.entry("t", "first"));
  }

  @Test
  void aPairWithAMalformedEscapeIsDroppedAndTheOthersAreKept() {
    assertThat(VoteDesk.form("t=%zz&x=1")).doesNotContainKey("t").containsEntry("x", "1");
  }

  @Test
  void nullEmptyAndNamelessInputReadsAsNoValues() {
    assertThat(VoteDesk.form(null)).isEmpty();
    assertThat(VoteDesk.form("")).isEmpty();
    assertThat(VoteDesk.form("=v&novalue")).isEmpty();
  }
}
