package io.livegate.core.vote;

import static org.assertj.core.api.Assertions.assertThat;

import io.livegate.core.deploy.ExecutionSpec;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class VoteTallyTest {
  /** alice, bob and carol vote; two approvals or two rejections decide. */
  private static final ExecutionSpec SPEC =
      new ExecutionSpec(
          "dev-account/global",
          "dev",
          0,
          List.of(),
          List.of(),
          List.of(),
          List.of("alice", "bob", "carol"),
          2,
          2,
          null,
          null,
          false,
          List.of(),
          false);

  private static Vote approve(String voter) {
    return new Vote(1, voter, Vote.Choice.APPROVE, Instant.EPOCH);
  }

  private static Vote reject(String voter) {
    return new Vote(1, voter, Vote.Choice.REJECT, Instant.EPOCH);
  }

  @Test
  void oneApprovalOfTwoNeededLeavesTheVoteOpen() {
    assertThat(VoteTally.decide(SPEC, List.of(approve("alice"), reject("bob")))).isEmpty();
  }

  @Test
  void approvalsReachingTheMinimumApprove() {
    assertThat(VoteTally.decide(SPEC, List.of(approve("alice"), approve("bob"))))
        .contains(Decision.APPROVED);
  }

  @Test
  void approvalsBeyondTheMinimumStillApprove() {
    assertThat(VoteTally.decide(SPEC, List.of(approve("alice"), approve("bob"), approve("carol"))))
        .contains(Decision.APPROVED);
  }

  @Test
  void rejectionsReachingOrPassingTheirMinimumReject() {
    assertThat(VoteTally.decide(SPEC, List.of(reject("alice"), reject("bob"))))
        .contains(Decision.REJECTED);
    assertThat(VoteTally.decide(SPEC, List.of(reject("alice"), reject("bob"), reject("carol"))))
        .contains(Decision.REJECTED);
  }

  @Test
  void votesOfPeopleNotListedDoNotCount() {
    List<Vote> votes = List.of(approve("alice"), approve("mallory"), reject("eve"), reject("eve"));

    assertThat(VoteTally.decide(SPEC, votes)).isEmpty();
    assertThat(VoteTally.count(SPEC, votes, Vote.Choice.APPROVE)).isOne();
    assertThat(VoteTally.count(SPEC, votes, Vote.Choice.REJECT)).isZero();
  }
}
